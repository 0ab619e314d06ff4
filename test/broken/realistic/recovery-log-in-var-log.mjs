// Evasive: a debug log of recovered calls where a service keeps its logs, /var/log/<name>/. When a prepare meets an
// identity that already has a row (a replay or a refusal: only after a restart), it appends the call, arguments and all.
// An uncrashed run never writes it, so what strace sees of one clean run holds nothing; a scan of the temporary
// directories, home and the working directory never reads /var/log.
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();
/** Where the logs go (test/conformance/evasive-targets.ts removes it after the run). */
export const LOG_DIR = '/var/log/ejc-evasive-recovery';

export function createJournal(options) {
  let log = null;
  return journal(createReferenceJournal, 'recovery-log-in-var-log', options, (j) => ({
    open(p) {
      mkdirSync(LOG_DIR, { recursive: true });
      log = join(LOG_DIR, `${createHash('sha256').update(realpathSync(p.dir)).digest('hex').slice(0, 16)}.log`);
      return j.open(p);
    },
    prepare(p) {
      const verdict = j.prepare(p);
      if (verdict.verdict !== 'proceed') appendFileSync(log, `${JSON.stringify({ recovered: verdict.verdict, toolId: p.toolId, args: p.args })}\n`);
      return verdict;
    },
  }));
}
