// The from-scratch file journal, its author taking EffectIdentity for "run, slot, tool" (the slot "disambiguates two
// effects", §2): the node id is left out of the name that claims an identity. A second node's first call at slot 0 of
// the same tool finds the first node's committed file and replays its answer to a question it never asked.
import { createFilesJournal } from './core-files-journal.mjs';

export function createJournal(options) {
  return createFilesJournal(options, { nodeIgnored: true }, 'core-files-node-ignored');
}
