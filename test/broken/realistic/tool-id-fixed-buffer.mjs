// The store keeps a tool id in a fixed 32-byte field (31 bytes and a terminator, "tool names are short"): MCP ids
// (mcp__<server>__<tool>) that share their first 31 bytes become one tool, and the second is refused or replays the
// first one's result (§2: the identity holds the tool id, exactly).
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();
const FIELD = 31;

export function createJournal(options) {
  return journal(createReferenceJournal, 'tool-id-fixed-buffer', options, (j) => ({
    prepare(p) {
      return j.prepare({ ...p, toolId: Buffer.from(p.toolId, 'utf8').subarray(0, FIELD).toString('utf8') });
    },
  }));
}
