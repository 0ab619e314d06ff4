// A KXM lease counted as valid through its expiresAt instant (now > expiresAt expires it): an intent dispatched exactly at
// expiry starts (kxm-effects-and-recovery §Lease failure; docs/protocol.md: "expired at or before now" is not started).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith({ 'reference-impl/kxm/dispatch.js': new URL('./own/kxm-lease-strict-expiry.mjs', import.meta.url).href });

export function createJournal(options) {
  return journal(createReferenceJournal, 'kxm-lease-strict-expiry', options);
}
