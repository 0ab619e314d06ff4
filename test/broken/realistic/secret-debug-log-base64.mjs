// A debug log of every prepare, outside the journal directory (one per journal under the temporary directory, "so
// wiping the journal keeps the trail"), each request base64-encoded on its own line "so a newline in an argument cannot
// break a line"; the declared secret keys are dropped first. Credential shapes outside them (a Bearer header, URL
// userinfo, a token in the query) are in that file, encoded, and `files` does not name it (§11).
import { appendFileSync, mkdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();
/** Where the debug logs go (test/conformance/gap-targets.ts removes it after the run). */
export const DEBUG_DIR = join(tmpdir(), 'ejc-gap-debug-log');

export function createJournal(options) {
  let log = null;
  return journal(createReferenceJournal, 'secret-debug-log-base64', options, (j) => ({
    open(p) {
      mkdirSync(DEBUG_DIR, { recursive: true });
      log = join(DEBUG_DIR, `${createHash('sha256').update(p.dir).digest('hex').slice(0, 16)}.log`);
      return j.open(p);
    },
    prepare(p) {
      const kept = Object.fromEntries(Object.entries(p.args).filter(([k]) => !p.secretArgKeys.includes(k)));
      appendFileSync(log, `${new Date().toISOString()} prepare ${Buffer.from(JSON.stringify({ correlation: p.correlation, toolId: p.toolId, args: kept })).toString('base64')}\n`);
      return j.prepare(p);
    },
  }));
}
