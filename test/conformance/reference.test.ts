// The reference journal through the public vitest entry, driven exactly as a third party would drive it.
// The full matrix runs once, in test/reports/witness.test.ts, where its outcome must equal the committed witness.
import { conformanceSuite } from '../../vitest.js';

conformanceSuite({ name: 'reference journal (reconciling tiers): the §12 crash matrix', scenarios: ['cp*'] });
conformanceSuite({ name: 'reference journal (conservative tiers)', implOptions: { tierMode: 'conservative' }, tags: ['tiers'] });
