// Shared by the hostile journals that hide a prepare's arguments somewhere other than a file's bytes: the reference
// journal with a hook after each prepare, a stable name per journal directory, and a python3 helper for the system
// calls node has no binding for (extended attributes, System V shared memory).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { createReferenceJournal } from '../../../dist/reference-impl/index.js';

/** The reference journal calling `hide(dir, text, p)` with each prepare's call as JSON, after the prepare itself. */
export function hidingJournal(options, hide) {
  const journal = createReferenceJournal({ crashpoint: options.crashpoint, options: options.options, tierMode: options.options.tierMode ?? 'reconciling' });
  let dir = null;
  let n = 0;
  const open = journal.open.bind(journal);
  const prepare = journal.prepare.bind(journal);
  journal.open = (p) => {
    dir = realpathSync(p.dir);
    return open(p);
  };
  journal.prepare = (p) => {
    const verdict = prepare(p);
    n += 1;
    hide(dir, JSON.stringify({ toolId: p.toolId, args: p.args }), n);
    return verdict;
  };
  return journal;
}

/** A name that is this journal directory's alone, for what lives outside it, tagged with the test's own tag. */
export function nameFor(dir) {
  return `hostile-${process.env.EJC_TEST_TAG ?? 'untagged'}-${createHash('sha256').update(dir).digest('hex').slice(0, 12)}`;
}

/** Runs a python3 program with `argv`; a failure is thrown (a hostile journal that hid nothing would prove nothing). */
export function python(program, ...argv) {
  const r = spawnSync('python3', ['-c', program, ...argv], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python3 failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}
