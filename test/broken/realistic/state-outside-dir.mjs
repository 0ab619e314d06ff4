// An attention index beside the database, "outside the journal directory so an operator's dashboard can read it without
// opening SQLite": every unresolved effect (id, scope, tool, state), rewritten after each prepare and settle. It holds
// journal state, yet `files` names only the database, so no byte scan reads it and no erasure check covers it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();
/** Where the index files go (test/conformance/gap-targets.ts removes it after the run). */
export const INDEX_DIR = join(tmpdir(), 'ejc-gap-attention-index');
const UNRESOLVED = new Set(['prepared', 'ambiguous', 'needs_attention']);

export function createJournal(options) {
  let index = null;
  return journal(createReferenceJournal, 'state-outside-dir', options, (j) => {
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
