// Every step boundary: enumerate the passages of a clean batch, then kill a fresh batch at each one and finish it after a restart.
import { join } from 'node:path';
import type { TrialContext } from '../engine/trial-context.js';
import { runBatch } from './coordinator.js';
import { buildEntry, type S8eEntry, type WorldCounts } from './entry.js';
import { s8eFixture, type S8eFixture } from './fixture.js';
import type { StepBoundary, StepPassage } from './steps.js';
import { failedTableChecks, type S8ePassageRun, type S8eSweepEntry } from './sweep-entry.js';
import { S8E_PHYSICAL_WRITES } from './table.js';

// Every kill here is at a coordinator step boundary, between operations: a journal crash point held and resumed
// inside prepare or settle would only cost a round trip per point, so none is armed (an unarmed point costs nothing).
const UNARMED = { armed: [] } as const;

/** Runs the calibration batch and one killed-and-restarted batch per passage through `boundary`; returns the section entry. */
export async function runEveryStep(t: TrialContext, boundary: StepBoundary): Promise<S8eSweepEntry> {
  const { entry: calibration, passages } = await calibrate(t, boundary);
  // Each kill is judged against the S8e table; a journal whose clean batch already misses it has failed, and kills would only repeat that.
  if (failedTableChecks(calibration).length > 0) return { mode: 'every-step', boundary, kills: 0, calibration, passages: [] };
  t.check(`passages through ${boundary} in the calibration batch`, '>= 1', passages.length, passages.length > 0);
  const runs: S8ePassageRun[] = [];
  for (const [n, passage] of passages.entries()) runs.push(await killAndFinish(t, passage, `p${n + 1}`, n + 1 < passages.length));
  t.expect('kills recorded, one at each passage', passages.map(() => `boundary:${boundary}`), t.kills.map((k) => k.point));
  return { mode: 'every-step', boundary, kills: t.kills.length, calibration, passages: runs };
}

// A clean batch in its own journal, ledger and log; every passage is recorded, none is killed (no crash is planned).
async function calibrate(t: TrialContext, boundary: StepBoundary): Promise<{ entry: S8eEntry; passages: StepPassage[] }> {
  const fixture = batchFixture('calibration');
  const before = t.world.counts();
  const passages: StepPassage[] = [];
  const client = await t.driver('calibration', { journalDir: join(t.dir, 'calibration'), ...UNARMED });
  t.startAhead('victim');
  const result = await runBatch(t, client, fixture, { onPassage: (p) => passages.push(p) });
  await client.close();
  const entry = buildEntry(t, fixture, result, { kills: 0, counts: delta(before, t.world.counts()) });
  const failed = failedTableChecks(entry);
  t.expect('calibration: the uninterrupted batch matches the S8e table', [], failed);
  return { entry, passages: passages.filter((p) => p.boundary === boundary) };
}

// A fresh journal, ledger and coordinator log; SIGKILL exactly at the passage, then a new driver finishes the batch.
async function killAndFinish(t: TrialContext, passage: StepPassage, name: string, more: boolean): Promise<S8ePassageRun> {
  const fixture = batchFixture(name);
  const journalDir = join(t.dir, name);
  const label = describePassage(fixture, passage);
  const before = t.world.counts();
  const killsBefore = t.kills.length;
  t.planCrash({ kind: 'boundary', boundary: passage.boundary, occurrence: passage.occurrence });
  t.startAhead('primary', { skip: 1 });
  const victim = await t.driver('victim', { journalDir, ...UNARMED });
  await t.untilCrash(() => runBatch(t, victim, fixture, { crashAt: (i, phase) => i === passage.index && phase === passage.phase }));
  const kill = t.kills.length > killsBefore ? t.kills[t.kills.length - 1]!.point : null;
  // Never reached (the trial is already inconclusive): the victim finished on its own and must not share the journal.
  if (kill === null) await victim.close();
  const client = await t.driver('primary', { journalDir, ...UNARMED });
  // The next passage's victim starts while this batch finishes (a fresh process; nothing is reused across a kill).
  if (more) t.startAhead('victim');
  const result = await runBatch(t, client, fixture);
  await client.close();
  const counts = delta(before, t.world.counts());
  const entry = buildEntry(t, fixture, result, { kills: kill === null ? 0 : 1, counts });
  const failedChecks = failedTableChecks(entry);
  t.expect(`${label}: the S8e table (states, fold, unknown) after the kill and restart`, [], failedChecks);
  t.expect(`${label}: writes after the kill and restart`, { physicalWrites: S8E_PHYSICAL_WRITES, duplicateWrites: 0, restartWrites: 0 }, { physicalWrites: counts.physicalWrites, duplicateWrites: counts.duplicateWrites, restartWrites: counts.restartWrites });
  return {
    ...passage,
    actionId: fixture.actions[passage.index - 1]?.id ?? `#${passage.index}`,
    kill,
    states: entry.states,
    counts: entry.counts,
    labels: entry.fold.labels,
    unknownResolvedTo: entry.unknown[0]?.resolvedTo ?? null,
    failedChecks,
  };
}

// Each batch gets its own ledger and logical keys, so the trial's world counts split into per-batch differences.
function batchFixture(name: string): S8eFixture {
  const base = s8eFixture();
  return { ...base, batchId: `${base.batchId}.${name}`, target: `${base.target}.${name}` };
}

function delta(before: WorldCounts, after: WorldCounts): WorldCounts {
  return {
    dispatchAttempts: after.dispatchAttempts - before.dispatchAttempts,
    physicalWrites: after.physicalWrites - before.physicalWrites,
    duplicateWrites: after.duplicateWrites - before.duplicateWrites,
    restartWrites: after.restartWrites - before.restartWrites,
  };
}

// A passage in the words an assertion uses, e.g. `after-settle of a15 (readback)`.
function describePassage(fixture: S8eFixture, p: StepPassage): string {
  const id = fixture.actions[p.index - 1]?.id ?? `#${p.index}`;
  return `${p.boundary} of ${id} (${p.phase}${p.occurrence > 1 ? `, #${p.occurrence}` : ''})`;
}
