// Which scenario must fail for each journal whose bug only shows once time has passed: the gate.hours-later and
// retention.days-later scenarios, which restart the journal under a clock libfaketime moves 1 h to ten years ahead.
import { realisticTarget, type RealisticTarget } from './realistic-target.js';

const realistic = (await import(new URL('../broken/realistic/index.mjs', import.meta.url).href)) as { realisticModule: (name: string) => string };

const GATE = 'gate.hours-later.unresolved-and-committed';
const RETENTION = 'retention.days-later.resumable-run-keeps-rows';

// The default run without libfaketime passed every one of these (the scenarios are not applicable there); the first
// two are new, the last three were caught before only when a generated trial happened to jump the clock far enough.
const CATCHES: Readonly<Record<string, readonly string[]>> = {
  // Deletes committed rows a day old at open: R's replay row is gone at 25 h.
  'committed-rows-expire-after-a-day': [GATE, RETENTION],
  // Resolves unresolved rows an hour old as discarded at open: node-b's gate passes at 1 h.
  'unresolved-discarded-after-an-hour': [GATE, RETENTION],
  // Discards prepared rows an hour old in the gate.
  'stale-prepare-abandoned': [GATE],
  // Deletes committed rows a week old at open.
  'open-expires-old-commits': [RETENTION],
  // Renews a tier-1 key a day old in the gate.
  'key-renewed-after-a-day': [GATE],
  // Deletes committed rows thirty days old at open, and discards unresolved rows ninety days old: passed every fixed
  // restart (9 days at most) and were caught only when a generated trial drew the 400-day jump (an outside Rust
  // journal's copies passed seed 2). The 400-day restart fails both.
  'committed-rows-expire-after-a-month': [RETENTION],
  'unresolved-discarded-after-a-quarter': [RETENTION],
};

/** One catalogue entry per clock journal: each designed scenario must be failed (not applicable fails the entry). */
export const CLOCK_TARGETS: readonly RealisticTarget[] = Object.entries(CATCHES).map(([name, scenarios]) => realisticTarget(realistic.realisticModule(name), name, scenarios));
