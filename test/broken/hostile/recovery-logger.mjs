// Hostile (realistic): the reference journal plus a debug log of recovered calls. When a prepare meets an identity
// that already has a row (a replay or a refusal: only after a restart), it appends the call, arguments and all, to
// /tmp/hostile-recovery-<tag>-<journal>.log. An uncrashed run never writes it, so a trace of one clean canary run
// sees nothing; the world scan after a crash trial finds the secrets there.
import { createHash } from 'node:crypto';
import { appendFileSync, realpathSync } from 'node:fs';
import { createReferenceJournal } from '../../../dist/reference-impl/index.js';

export function createJournal(options) {
  const journal = createReferenceJournal({ crashpoint: options.crashpoint, options: options.options, tierMode: options.options.tierMode ?? 'reconciling' });
  let log = null;
  const open = journal.open.bind(journal);
  const prepare = journal.prepare.bind(journal);
  journal.open = (p) => {
    log = `/tmp/hostile-recovery-${process.env.EJC_TEST_TAG ?? 'untagged'}-${createHash('sha256').update(realpathSync(p.dir)).digest('hex').slice(0, 16)}.log`;
    return open(p);
  };
  journal.prepare = (p) => {
    const verdict = prepare(p);
    if (verdict.verdict !== 'proceed') appendFileSync(log, `${JSON.stringify({ recovered: verdict.verdict, toolId: p.toolId, args: p.args })}\n`);
    return verdict;
  };
  return journal;
}
