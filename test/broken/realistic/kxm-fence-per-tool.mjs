// KXM lease fencing scoped to (lease, tool): after the lease is re-granted under a higher token to a holder running
// another tool, the stale holder's intent still starts (kxm-effects-and-recovery §Lease failure: the lease is the fence).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith({ 'reference-impl/kxm/dispatch.js': new URL('./own/kxm-fence-per-tool.mjs', import.meta.url).href });

export function createJournal(options) {
  return journal(createReferenceJournal, 'kxm-fence-per-tool', options);
}
