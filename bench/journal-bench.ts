// The reference journal's prepare+settle cycle against raw better-sqlite3 writing the same two transactions.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { dir as tmpDir } from 'tmp-promise';
import { createReferenceJournal, type ReferenceJournal } from '../reference-impl/index.js';
import { createSchema } from '../reference-impl/schema.js';
import { openConnection, type Db } from '../reference-impl/sqlite.js';
import type { Figure } from './figure.js';

const WARMUP = 300;
const ROUNDS = 20;

/**
 * Short interleaved rounds of both in one process; the ratio is of CPU time (user + system), which other load on
 * the machine does not inflate the way it inflates wall time. Wall rates are printed too.
 */
export async function journalBench(cycles = Number(process.env['EJC_BENCH_CYCLES'] ?? 6_000)): Promise<Figure> {
  const tmp = await tmpDir({ unsafeCleanup: true, prefix: 'ejc-bench-' });
  const journal = createReferenceJournal({ crashpoint: () => {}, options: {} });
  let baseline: Db | null = null;
  try {
    journal.open({ dir: join(tmp.path) });
    baseline = openConnection(join(tmp.path, 'baseline.db'));
    createSchema(baseline);
    let next = 0;
    const contenders = { reference: () => referenceCycle(journal, next++), raw: rawCycle(baseline) };
    for (const cycle of Object.values(contenders)) measure(cycle, WARMUP);
    const totals = { reference: { cpu: 0, wall: 0 }, raw: { cpu: 0, wall: 0 } };
    const perRound = Math.max(1, Math.round(cycles / ROUNDS));
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of ['reference', 'raw'] as const) {
        const m = measure(contenders[name], perRound);
        totals[name].cpu += m.cpu;
        totals[name].wall += m.wall;
      }
    }
    const n = perRound * ROUNDS;
    const us = (ms: number): string => `${((ms * 1000) / n).toFixed(1)} us`;
    return {
      name: 'reference journal prepare+settle vs raw better-sqlite3',
      lines: [
        `${n} cycles each in ${ROUNDS} interleaved rounds, warm-up ${WARMUP}; the raw cycle inserts and settles the same row`,
        `reference journal: ${us(totals.reference.cpu)} CPU, ${us(totals.reference.wall)} wall per cycle`,
        `raw better-sqlite3: ${us(totals.raw.cpu)} CPU, ${us(totals.raw.wall)} wall per cycle`,
        `wall-time ratio: ${(totals.raw.wall / totals.reference.wall).toFixed(2)}`,
      ],
      measures: [{ label: 'prepare+settle cycles/s, reference / raw (CPU time)', value: totals.raw.cpu / totals.reference.cpu, unit: 'ratio', target: { atLeast: 0.6 } }],
    };
  } finally {
    journal.close();
    baseline?.close();
    await tmp.cleanup();
  }
}

function referenceCycle(journal: ReferenceJournal, n: number): void {
  const verdict = journal.prepare({
    correlation: { kind: 'run', runId: 'bench-run', nodeId: `node-${n >> 8}`, attempt: 1 },
    slot: n & 255,
    toolId: 'http_request',
    tier: 3,
    args: { method: 'POST', url: 'https://api.example.com/v1/items', body: { n, name: 'item' }, token: 'secret' },
    secretArgKeys: ['token'],
    outputMappingConfig: { path: '$.id' },
    audit: { providerAttempt: 0, callId: `call-${n}`, ownerId: 'bench', generation: 1 },
  });
  if (verdict.verdict !== 'proceed') throw new Error(`bench: unexpected verdict ${verdict.verdict}`);
  journal.settle({
    effectId: verdict.effectId,
    state: 'committed',
    result: { modelValue: `created ${n}`, truncated: false, summary: 'ok', outputMappingResult: { id: n } },
  });
}

// The same two BEGIN IMMEDIATE writes of the same row (digests and key as constants of their real length), with no
// lookup, digest or validation, as idiomatic better-sqlite3 with nothing of the reference journal's code: the floor.
function rawCycle(db: Db): () => void {
  const digest = `v5:${'0'.repeat(64)}`;
  const key = `ik-${'0'.repeat(32)}`;
  const insert = db.prepare(
    `INSERT INTO run_effects (scope_kind, run_id, node_id, slot, tool_id, tier, state, args_digest, output_mapping_digest,
       idempotency_key, node_attempt, provider_attempt, call_id, owner_id, generation, created_at, updated_at)
     VALUES ('run', 'bench-run', ?, ?, 'http_request', 3, 'prepared', '${digest}', '${digest}', '${key}', 1, 0, ?, 'bench', 1, ?, ?)`,
  );
  const settle = db.prepare(`UPDATE run_effects SET state = 'committed', result_json = ?, updated_at = ? WHERE id = ?`);
  const prepareTx = db.transaction((i: number, now: string) => Number(insert.run(`node-${i >> 8}`, i & 255, `call-${i}`, now, now).lastInsertRowid));
  const settleTx = db.transaction((i: number, now: string, id: number) =>
    settle.run(`{"modelValue":"created ${i}","outputMappingResult":{"id":${i}},"summary":"ok","truncated":false}`, now, id),
  );
  let n = 0;
  return () => {
    const i = n++;
    const now = new Date().toISOString();
    const id = prepareTx.immediate(i, now);
    settleTx.immediate(i, now, id);
  };
}

function measure(cycle: () => void, count: number): { cpu: number; wall: number } {
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < count; i++) cycle();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / 1000, wall };
}
