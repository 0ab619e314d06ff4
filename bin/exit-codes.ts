// The process exit codes: stable, documented in --help, and what CI gates on.
import type { Verdict } from '../reports/schema.js';

/** Exit codes by meaning. */
export const EXIT = {
  ok: 0,
  conformant: 0,
  nonconformant: 1,
  problems: 1,
  inconclusive: 2,
  error: 3,
} as const;

/** The exit code a report verdict maps to. */
export function exitCodeFor(verdict: Verdict): number {
  return verdict === 'conformant' ? EXIT.conformant : verdict === 'nonconformant' ? EXIT.nonconformant : EXIT.inconclusive;
}
