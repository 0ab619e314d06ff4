// The reference journal passes every scenario, driven exactly as a third party would be: through the vitest entry.
import { conformanceSuite } from '../../vitest.js';

conformanceSuite({ name: 'reference journal (reconciling tiers)' });
conformanceSuite({ name: 'reference journal (conservative tiers)', implOptions: { tierMode: 'conservative' }, tags: ['tiers'] });
