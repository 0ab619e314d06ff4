// Per-scenario durations recorded in the committed reference witness: what shards balance and lanes schedule by.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the committed witness sits, relative to the package root. */
export const WITNESS_FILE = 'reports/witnesses/reference-journal.seed-1.json';

/**
 * Scenario id → the duration (ms) the committed witness recorded for it. Fixed numbers shipped with this version,
 * so a split or a schedule built on them is the same on every machine. Empty when the witness cannot be read.
 */
export function recordedDurations(): ReadonlyMap<string, number> {
  cached ??= readDurations();
  return cached;
}
let cached: ReadonlyMap<string, number> | undefined;

/** The durations a report holds, for a witness given explicitly (tests, other seeds). */
export function durationsOf(report: unknown): Map<string, number> {
  const out = new Map<string, number>();
  const scenarios = (report as { scenarios?: unknown } | null)?.scenarios;
  if (!Array.isArray(scenarios)) return out;
  for (const s of scenarios as Array<{ id?: unknown; durationMs?: unknown }>) {
    if (typeof s.id === 'string' && typeof s.durationMs === 'number' && Number.isFinite(s.durationMs) && s.durationMs >= 0) out.set(s.id, s.durationMs);
  }
  return out;
}

function readDurations(): ReadonlyMap<string, number> {
  const here = dirname(fileURLToPath(import.meta.url));
  // harness/ when the sources run under vitest, dist/harness/ when compiled (tsc copies no JSON into dist/).
  for (const root of [resolve(here, '..'), resolve(here, '..', '..')]) {
    try {
      return durationsOf(JSON.parse(readFileSync(resolve(root, WITNESS_FILE), 'utf8')));
    } catch {
      // not at this depth; an unreadable witness means "no recorded durations", and callers fall back to counts
    }
  }
  return new Map();
}
