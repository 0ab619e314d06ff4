// What the claim-* journals share: a realistic journal whose hello claims less (or other) than it does, so the
// scenarios that would catch its bug were reported not applicable before the harness checked claims against evidence.
import { journal, referenceWith } from './journal-base.mjs';

/** The reference with `overrides` (see journal-base.mjs) whose hello says `claims(capabilities)` instead. */
export async function claimJournal(name, options, claims, overrides = () => ({}), swaps = {}) {
  const createReferenceJournal = await referenceWith(swaps);
  const out = journal(createReferenceJournal, name, options, overrides);
  out.capabilities = claims({ ...out.capabilities });
  return out;
}
