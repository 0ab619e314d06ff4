// Which scenario must fail (failed, never inconclusive) for each gap-* journal: before this red team each ran the whole
// default matrix conformant (see its commit), because ejc did not check that clause on evidence the journal does not control.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Report } from '../../reports/schema.js';
import { WORLD_SCAN_CLAUSE } from '../../harness/world/world-scan.js';
import { catchesOf, realisticTarget, type RealisticTarget } from './realistic-target.js';

const realistic = (await import(new URL('../broken/realistic/index.mjs', import.meta.url).href)) as { GAP: string[]; realisticModule: (name: string) => string };

const CATCHES: Readonly<Record<string, readonly string[]>> = {
  // Announced settle.before-commit after the settle committed: held there, a second driver sees it committed.
  'settle-point-after-write': ['claims.crash-points-block.beyond-prepare'],
  // A credential split over 16-byte rows, and a brotli copy: the journal-directory scans' pieces and raw-stream views.
  'secret-request-chunks': ['secrets.args-never-on-disk'],
  'secret-brotli-request': ['secrets.args-never-on-disk'],
  // A base64 debug log under the temporary directory: the world scan's encoded needles.
  'secret-debug-log-base64': ['secrets.args-never-on-disk'],
  // An attention index outside the journal directory that files does not name: what strace saw written.
  'state-outside-dir': ['claims.written-files-listed'],
  // Deletes the captured rows before refusing an outer transaction, and claims outerTransactionProbe: false, which kept
  // cp11.session-sweep.outer-transaction out: the probe is asked anyway, and answering it as a probe contradicts the claim.
  'outer-probe-claimed-off': ['claims.operations-match-hello'],
  // Resolutions stamped in January 1970 (epoch seconds read as milliseconds): the time must fall within the resolve call.
  'resolution-time-in-seconds': ['recovery.operator-resolution'],
  // Truncates the WAL before it announces checkpoint.before: held there, the files are no longer those the checkpoint was asked on.
  'checkpoint-point-after-truncate': ['claims.crash-points-block.beyond-prepare'],
};

// Where the two outside-the-directory journals write (their DEBUG_DIR and INDEX_DIR), removed after their run.
const OUTSIDE: Readonly<Record<string, string>> = {
  'secret-debug-log-base64': join(tmpdir(), 'ejc-gap-debug-log'),
  'state-outside-dir': join(tmpdir(), 'ejc-gap-attention-index'),
};

export type GapTarget = RealisticTarget;

/** One catalogue entry per gap journal: its module, its clean-up, and evidence that each designed scenario failed. */
export const GAP_TARGETS: readonly GapTarget[] = realistic.GAP.map((name) => {
  const outside = OUTSIDE[name];
  const setup = outside === undefined ? {} : { after: () => rmSync(outside, { recursive: true, force: true }) };
  const also = name === 'secret-debug-log-base64' ? worldScanFailed : undefined;
  return realisticTarget(realistic.realisticModule(name), name, catchesOf(CATCHES, name, 'test/conformance/gap-targets.ts'), { setup, ...(also ? { also } : {}) });
});

// The debug log is outside the journal directory: the finding is the world scan's, not the directory scans'.
function worldScanFailed(report: Report): void {
  const failed = report.scenarios.flatMap((s) => s.trials.flatMap((t) => t.assertions.filter((a) => !a.passed).map((a) => a.name)));
  if (!failed.includes(WORLD_SCAN_CLAUSE)) throw new Error(`expected the world scan to find the debug log, failed: ${failed.join('; ')}`);
}
