// Which write sweep must fail for each journal that writes an operation beyond prepare and settle in two statements:
// the default matrix passed each of them before the sweep of that operation (sweep.<op>.every-write) existed.
import { realisticTarget, type RealisticTarget } from './realistic-target.js';

const realistic = (await import(new URL('../broken/realistic/index.mjs', import.meta.url).href)) as { realisticModule: (name: string) => string };

const CATCHES: Readonly<Record<string, readonly string[]>> = {
  // A kill between the delete and the insert loses an unresolved row: the gate then passes.
  'gate-attention-by-delete-insert': ['sweep.gate.every-write'],
  // A kill between the delete and the insert loses the row the operator was resolving.
  'resolve-by-delete-insert': ['sweep.resolve.every-write'],
  // A kill between the delete and the insert loses the row being reconciled.
  'reconcile-by-delete-insert': ['sweep.reconcile.every-write'],
  // A kill between the state and the audit entry leaves a completed effect no audited action completed.
  'kxm-resolve-audit-after': ['sweep.kxm-resolve.every-write'],
  // A kill between cancelling the intents and recording the request leaves them cancelled under an active run.
  'kxm-cancel-intents-first': ['sweep.kxm-cancel.every-write'],
  // A kill between the state and the receipt leaves a completed effect with no receipt.
  'kxm-recover-receipt-after': ['sweep.kxm-recover.every-write'],
  // A kill between the copy-out's delete and the re-insert loses every row, unresolved ones included.
  'checkpoint-compacts-by-copy': ['sweep.checkpoint.every-write'],
  // A kill between claiming the dispatch fence and marking the effect dispatched leaves an intent no dispatch can start.
  'kxm-dispatch-fence-first': ['sweep.kxm-dispatch.every-write'],
};

/** One catalogue entry per journal: the sweep of its operation must be failed. */
export const OP_SWEEP_TARGETS: readonly RealisticTarget[] = Object.entries(CATCHES).map(([name, scenarios]) => realisticTarget(realistic.realisticModule(name), name, scenarios));
