// The from-scratch KXM journal, its author checking a cancellation only where intents are made: declare refuses after a
// cancel and cancel moves every intent to cancelled, so dispatch "need not look". An intent a resolution creates after
// the cancel (confirm absent and retry) is dispatched anyway (kxm-effects-and-recovery §Cancellation: "stop new dispatches").
import { createKxmFilesJournal } from './kxm-files-journal.mjs';

export function createJournal(options) {
  return createKxmFilesJournal(options, { dispatchIgnoresCancel: true }, 'kxm-dispatch-ignores-cancel');
}
