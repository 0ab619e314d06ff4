// Which scenario must fail (failed, never inconclusive) for each evasive journal: all but the last ran conformant on the
// scenarios that could catch them (claims.*, secrets.*; the two logs on the whole default matrix) before the check named here.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Report } from '../../reports/schema.js';
import { WORLD_SCAN_CLAUSE } from '../../harness/world/world-scan.js';
import { catchesOf, realisticTarget, type RealisticTarget } from './realistic-target.js';

const realistic = (await import(new URL('../broken/realistic/index.mjs', import.meta.url).href)) as { EVASIVE: string[]; realisticModule: (name: string) => string };

const CATCHES: Readonly<Record<string, readonly string[]>> = {
  // A recovery log whose mtime (and its directory's) is set back to 2020 after each append: the world scan reads ctimes too.
  'recovery-log-backdated': ['secrets.args-never-on-disk'],
  // A recovery log in /var/log/<name>/: the world scan reads the service directories (/var, /run, /srv, ...).
  'recovery-log-in-var-log': ['secrets.args-never-on-disk'],
  // Unlisted state in /dev/shm, named like Python bytecode, or in a directory renamed at close: what strace saw written,
  // judged as regular files wherever they are, bytecode only when it is, and followed through the rename.
  'state-in-dev-shm': ['claims.written-files-listed'],
  'state-named-as-pycache': ['claims.written-files-listed'],
  'state-dir-renamed-at-close': ['claims.written-files-listed'],
  // Arguments kept with every EJC-CANARY- string scrubbed: secrets shaped like real credentials are kept.
  'args-scrub-spares-canaries': ['secrets.unmarked-args-never-on-disk'],
  // Arguments kept AES-GCM encrypted under a key in the same database: the files grow with the secret.
  'args-sealed-at-rest': ['secrets.size-leaves-no-trace'],
  // Answers settle before committing it (on the next turn of its event loop): the boundary kill after the answer lands
  // first, so the acknowledged settle is lost. Caught before this red team too; kept as the guard for the class.
  'settle-acked-before-commit': ['cp04.after-settle'],
};

// Where the journals that write outside their directory write (their LOG_DIR, INDEX_DIR, INDEX_ROOT), removed after their run.
const OUTSIDE: Readonly<Record<string, string>> = {
  'recovery-log-backdated': join(tmpdir(), 'ejc-evasive-recovery-backdated'),
  'recovery-log-in-var-log': '/var/log/ejc-evasive-recovery',
  'state-in-dev-shm': '/dev/shm/ejc-evasive-attention-index',
  'state-named-as-pycache': join(tmpdir(), 'ejc-evasive-pyc'),
  'state-dir-renamed-at-close': join(tmpdir(), 'ejc-evasive-renamed-index'),
};

/** One catalogue entry per evasive journal: its module, its clean-up, and evidence that each designed scenario failed. */
export const EVASIVE_TARGETS: readonly RealisticTarget[] = realistic.EVASIVE.map((name) => {
  const outside = OUTSIDE[name];
  const setup = outside === undefined ? {} : { after: () => rmSync(outside, { recursive: true, force: true }) };
  const also = name.startsWith('evasive-recovery-log-') ? worldScanFailed : undefined;
  return realisticTarget(realistic.realisticModule(name), name, catchesOf(CATCHES, name, 'test/conformance/evasive-targets.ts'), { setup, ...(also ? { also } : {}) });
});

// The logs are outside the journal directory: the finding is the world scan's, not the directory scans'.
function worldScanFailed(report: Report): void {
  const failed = report.scenarios.flatMap((s) => s.trials.flatMap((t) => t.assertions.filter((a) => !a.passed).map((a) => a.name)));
  if (!failed.includes(WORLD_SCAN_CLAUSE)) throw new Error(`expected the world scan to find the log, failed: ${failed.join('; ')}`);
}
