// Throughput of the reference journal's prepare+settle cycle against a raw better-sqlite3 baseline.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { dir as tmpDir } from 'tmp-promise';
import { createReferenceJournal, type ReferenceJournal } from '../reference-impl/index.js';
import { createSchema } from '../reference-impl/schema.js';
import { openConnection, type Db } from '../reference-impl/sqlite.js';

export interface BenchResult {
  readonly name: string;
  readonly lines: readonly string[];
}

const WARMUP = 200;
const ROUNDS = 3;

/** Runs both contenders interleaved in the same process and reports cycles/s and their ratio. */
export async function journalBench(cycles = Number(process.env['EJC_BENCH_CYCLES'] ?? 2_000)): Promise<BenchResult> {
  const tmp = await tmpDir({ unsafeCleanup: true, prefix: 'ejc-bench-' });
  const journal = createReferenceJournal({ crashpoint: () => {}, options: {} });
  let baseline: Db | null = null;
  try {
    journal.open({ dir: join(tmp.path) });
    baseline = openConnection(join(tmp.path, 'baseline.db'));
    createSchema(baseline);
    const raw = rawCycle(baseline);
    let next = 0;
    const ref = () => referenceCycle(journal, next++);
    runCycles(ref, WARMUP);
    runCycles(raw, WARMUP);
    const refTimes: number[] = [];
    const rawTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      refTimes.push(runCycles(ref, cycles));
      rawTimes.push(runCycles(raw, cycles));
    }
    const refRate = (cycles * ROUNDS) / (sum(refTimes) / 1000);
    const rawRate = (cycles * ROUNDS) / (sum(rawTimes) / 1000);
    return {
      name: 'journal prepare+settle',
      lines: [
        `cycles: ${cycles} x ${ROUNDS} rounds each (interleaved), warm-up ${WARMUP}`,
        `reference journal: ${refRate.toFixed(0)} cycles/s (${(1e6 / refRate).toFixed(1)} us/cycle)`,
        `raw better-sqlite3: ${rawRate.toFixed(0)} cycles/s (${(1e6 / rawRate).toFixed(1)} us/cycle)`,
        `ratio reference/raw: ${(refRate / rawRate).toFixed(2)}`,
      ],
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

// The same two BEGIN IMMEDIATE writes with no lookup, digest or validation, as idiomatic better-sqlite3 (transaction
// functions built once, nothing of the reference journal's code): the floor.
function rawCycle(db: Db): () => void {
  const insert = db.prepare(
    `INSERT INTO run_effects (scope_kind, run_id, node_id, slot, tool_id, tier, state, args_digest, provider_attempt,
       call_id, owner_id, generation, created_at, updated_at)
     VALUES ('run', 'bench-run', ?, ?, 'http_request', 3, 'prepared', 'v5:x', 0, ?, 'bench', 1, ?, ?)`,
  );
  const settle = db.prepare(`UPDATE run_effects SET state = 'committed', result_json = ?, updated_at = ? WHERE id = ?`);
  const prepareTx = db.transaction((i: number, now: string) => Number(insert.run(`node-${i >> 8}`, i & 255, `call-${i}`, now, now).lastInsertRowid));
  const settleTx = db.transaction((i: number, now: string, id: number) => settle.run(`{"modelValue":"created ${i}"}`, now, id));
  let n = 0;
  return () => {
    const i = n++;
    const now = new Date().toISOString();
    const id = prepareTx.immediate(i, now);
    settleTx.immediate(i, now, id);
  };
}

function runCycles(cycle: () => void, count: number): number {
  const start = performance.now();
  for (let i = 0; i < count; i++) cycle();
  return performance.now() - start;
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
