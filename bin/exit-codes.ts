// The process exit codes: stable, documented in --help, and what CI gates on.
import { gateOutcome, type GateOutcome } from '../reports/derive.js';
import type { Summary } from '../reports/schema.js';

/** Exit codes by meaning. */
export const EXIT = {
  ok: 0,
  conformant: 0,
  nonconformant: 1,
  problems: 1,
  inconclusive: 2,
  error: 3,
  /** --require named a machine dimension (strace, clock, pid-namespace) this machine lacks: nothing ran. */
  requirement: 4,
} as const;

const BY_GATE: Record<GateOutcome, number> = {
  conformant: EXIT.conformant,
  // Every failure was listed in --expect-failures: the gate passes while the verdict says nonconformant.
  known_failures: EXIT.conformant,
  nonconformant: EXIT.nonconformant,
  inconclusive: EXIT.inconclusive,
};

/** The exit code of a report (run and merge): derived from its summary, so expected failures exit 0 with a nonconformant verdict. */
export function exitCodeFor(report: { summary: Summary }): number {
  return BY_GATE[gateOutcome(report.summary)];
}
