// Evasive: state-outside-dir's attention index (every unresolved effect: id, scope, tool, state, rewritten after each
// prepare and settle), kept in shared memory, /dev/shm, "so a dashboard on the same host reads it without a disk". It is
// journal state in a regular file that `files` does not name, and it outlives the journal process as the database does.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();
/** Where the index files go (test/conformance/evasive-targets.ts removes it after the run). */
export const INDEX_DIR = '/dev/shm/ejc-evasive-attention-index';
const UNRESOLVED = new Set(['prepared', 'ambiguous', 'needs_attention']);

export function createJournal(options) {
  let index = null;
  return journal(createReferenceJournal, 'state-in-dev-shm', options, (j) => {
    const refresh = () => {
      const open = j.listEffects({}).effects.filter((e) => UNRESOLVED.has(e.state)).map((e) => ({ effectId: e.effectId, scope: e.scope, toolId: e.toolId, state: e.state }));
      writeFileSync(index, JSON.stringify(open));
    };
    return {
      open(p) {
        mkdirSync(INDEX_DIR, { recursive: true });
        index = join(INDEX_DIR, `${createHash('sha256').update(p.dir).digest('hex').slice(0, 16)}.json`);
        return j.open(p);
      },
      prepare(p) {
        const v = j.prepare(p);
        refresh();
        return v;
      },
      settle(p) {
        const s = j.settle(p);
        refresh();
        return s;
      },
    };
  });
}
