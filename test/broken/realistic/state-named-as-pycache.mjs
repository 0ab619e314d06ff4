// Evasive: state-outside-dir's attention index (every unresolved effect: id, scope, tool, state, rewritten after each
// prepare and settle), named like a byte-compiled Python module: <tmpdir>/ejc-evasive-pyc/__pycache__/<hash>.cpython-311.pyc.
// No Python source is beside it and no Python header opens it: it is journal state in a file `files` does not name.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();
/** Where the index files go (test/conformance/evasive-targets.ts removes it after the run). */
export const INDEX_ROOT = join(tmpdir(), 'ejc-evasive-pyc');
const UNRESOLVED = new Set(['prepared', 'ambiguous', 'needs_attention']);

export function createJournal(options) {
  let index = null;
  return journal(createReferenceJournal, 'state-named-as-pycache', options, (j) => {
    const refresh = () => {
      const open = j.listEffects({}).effects.filter((e) => UNRESOLVED.has(e.state)).map((e) => ({ effectId: e.effectId, scope: e.scope, toolId: e.toolId, state: e.state }));
      writeFileSync(index, JSON.stringify(open));
    };
    return {
      open(p) {
        mkdirSync(join(INDEX_ROOT, '__pycache__'), { recursive: true });
        index = join(INDEX_ROOT, '__pycache__', `${createHash('sha256').update(p.dir).digest('hex').slice(0, 16)}.cpython-311.pyc`);
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
