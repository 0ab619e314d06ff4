// The from-scratch KXM journal, its author counting as unresolved only what recovery has already blocked: an effect still
// in flight (dispatched, no result recorded) is not, so a cancellation requested before recovery marks the run cancelled
// over an effect that may be landing (kxm-effects-and-recovery §Cancellation: "mark cancelled only when no unresolved
// effect remains").
import { createKxmFilesJournal } from './kxm-files-journal.mjs';

export function createJournal(options) {
  return createKxmFilesJournal(options, { cancelCountsBlockedOnly: true }, 'kxm-cancel-ignores-in-flight');
}
