// Evasive: state-outside-dir's attention index (every unresolved effect: id, scope, tool, state, rewritten after each
// prepare and settle), in a directory of its own under the temporary directory that is renamed when the journal closes
// (<hash>.live → <hash>.closed, "so a reader knows the writer has gone") and back when it opens. Every file written
// lies in a directory that no longer has that name once the journal is closed: journal state `files` does not name.
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();
/** Where the index directories go (test/conformance/evasive-targets.ts removes it after the run). */
export const INDEX_ROOT = join(tmpdir(), 'ejc-evasive-renamed-index');
const UNRESOLVED = new Set(['prepared', 'ambiguous', 'needs_attention']);

export function createJournal(options) {
  let live = null;
  let closed = null;
  return journal(createReferenceJournal, 'state-dir-renamed-at-close', options, (j) => {
    const refresh = () => {
      const open = j.listEffects({}).effects.filter((e) => UNRESOLVED.has(e.state)).map((e) => ({ effectId: e.effectId, scope: e.scope, toolId: e.toolId, state: e.state }));
      writeFileSync(join(live, 'attention.json'), JSON.stringify(open));
    };
    return {
      open(p) {
        const name = createHash('sha256').update(p.dir).digest('hex').slice(0, 16);
        live = join(INDEX_ROOT, `${name}.live`);
        closed = join(INDEX_ROOT, `${name}.closed`);
        mkdirSync(INDEX_ROOT, { recursive: true });
        if (existsSync(closed)) renameSync(closed, live);
        mkdirSync(live, { recursive: true });
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
      close() {
        const out = j.close();
        if (live !== null && existsSync(live)) renameSync(live, closed);
        return out;
      },
    };
  });
}
