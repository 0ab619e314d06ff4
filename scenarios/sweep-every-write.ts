// Every durable write: SIGKILL inside prepare and inside settle at each write/fsync syscall strace observed there.
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { defineScenario, type Scenario } from './define.js';
import { defaultPrepare, isUnresolved, nodeRows, rows } from './support.js';
import { parseStraceLog, traceeKilled, underStrace, type SyscallEvent } from '../harness/engine/syscall-sweep.js';
import { DEFAULT_MAPPING, deriveProjections } from '../harness/engine/projections.js';
import type { TrialContext } from '../harness/engine/trial-context.js';
import type { JournalClient } from '../harness/engine/journal-client.js';
import type { OpParams, RecordedResult } from '../harness/protocol/schemas.js';

type Op = 'prepare' | 'settle';

export const sweepEveryWrite: Scenario[] = [sweepScenario('prepare'), sweepScenario('settle')];

function sweepScenario(op: Op): Scenario {
  return defineScenario({
    id: `sweep.${op}.every-write`,
    title: `SIGKILL at every durable write syscall inside ${op}`,
    spec: op === 'prepare' ? 'effect-journal §12.1, §6, §7 step 2' : 'effect-journal §12.3–4, §6, §7 step 4',
    tags: ['crash-matrix', 'run', 'write-sweep'],
    needs: ['harness:strace'],
    description:
      `A calibration driver runs under strace and records every pwrite/fsync-family syscall of one ${op}. Then, for each of them, a fresh driver on a fresh journal is SIGKILLed by strace exactly at that syscall, and a new driver inspects what the kill left. ` +
      'No crash window inside the operation is left unexplored, whether or not the implementation announces crash points.',
    asserts:
      op === 'prepare'
        ? ['each kill happened inside the prepare', 'afterwards there is no row and the gate passes, or one unresolved row that carries its idempotency key and the gate refuses']
        : ['each kill happened inside the settle', 'afterwards the row is still prepared and the gate refuses, or it is committed with the complete recorded result and the re-run replays it verbatim'],
    async trial(t) {
      const runId = t.rng.id('run');
      const prepare = defaultPrepare(t, runId, 'node-a');
      const result = deriveProjections('http_request', `{"echo":"${'x'.repeat(80)}","tail":"END"}`, DEFAULT_MAPPING);
      const window = await calibrate(t, op, prepare, result);
      if (window.length === 0) {
        t.inconclusiveReason = `strace saw no durable write syscall during ${op}: nothing to sweep`;
        return;
      }
      for (const [i, event] of window.entries()) {
        const dir = join(t.dir, `point-${i + 1}`);
        t.plannedKills += 1;
        const label = `${event.syscall}#${event.invocation}`;
        const log = join(t.dir, `point-${i + 1}.strace`);
        const victim = await t.driver('victim', { journalDir: dir, launch: underStrace(t.launch, { log, kill: event }) });
        if (!(await diesInside(t, victim, op, prepare, result, label, log))) continue;
        const after = await t.driver('primary', { journalDir: dir });
        if (op === 'prepare') await checkAfterPrepareKill(t, after, prepare, label);
        else await checkAfterSettleKill(t, after, prepare, result, label);
        await after.close();
      }
    },
  });
}

// Runs the op sequence once under strace (logging only) and returns the durable syscalls of the op itself.
async function calibrate(t: TrialContext, op: Op, prepare: OpParams<'prepare'>, result: RecordedResult): Promise<SyscallEvent[]> {
  const log = join(t.dir, 'calibration.strace');
  const client = await t.driver('calibration', { journalDir: join(t.dir, 'calibration'), launch: underStrace(t.launch, { log }) });
  let before = parseStraceLog(log).length;
  const verdict = await client.op('prepare', prepare);
  if (op === 'settle') {
    if (verdict.verdict !== 'proceed') throw new Error(`calibration prepare did not proceed (${verdict.verdict})`);
    before = parseStraceLog(log).length;
    await client.op('settle', { effectId: verdict.effectId, state: 'committed', result });
  }
  const window = parseStraceLog(log).slice(before);
  await client.close();
  t.check(`durable syscalls strace observed inside ${op}`, '> 0', window.length, window.length > 0);
  return window;
}

// Replays the sequence on the victim; true when it died by SIGKILL inside the op (recorded as a kill).
async function diesInside(t: TrialContext, victim: JournalClient, op: Op, prepare: OpParams<'prepare'>, result: RecordedResult, label: string, log: string): Promise<boolean> {
  let reachedOp = op === 'prepare';
  try {
    const verdict = await victim.op('prepare', prepare);
    if (op === 'settle' && verdict.verdict === 'proceed') {
      reachedOp = true;
      await victim.op('settle', { effectId: verdict.effectId, state: 'committed', result });
    }
  } catch {
    // A wrapper (a shell, a version shim) may outlive the tracee and exit 137: strace's log is the evidence.
    const exit = await victim.handle.kill();
    const signal = exit.signal === 'SIGKILL' || traceeKilled(log) ? 'SIGKILL' : exit.signal;
    if (reachedOp && signal === 'SIGKILL') {
      t.recordKill(victim, { planned: `syscall:${label}`, point: `syscall:${label}`, seq: victim.handle.seq, signal, driver: victim.label });
      return true;
    }
  }
  await victim.handle.kill();
  return false;
}

async function checkAfterPrepareKill(t: TrialContext, client: JournalClient, prepare: OpParams<'prepare'>, label: string): Promise<void> {
  const scope = prepare.correlation.kind === 'run' ? prepare.correlation : null;
  if (!scope) return;
  const left = nodeRows(await rows(client), scope.runId, scope.nodeId);
  const gate = await client.op('gate', { scope: { kind: 'run', runId: scope.runId, nodeId: scope.nodeId }, attempt: 1 });
  const clean = left.length === 0 && gate.decision === 'pass';
  const kept = left.length === 1 && isUnresolved(left[0]) && left[0]?.idempotencyKey !== null && gate.decision === 'refuse';
  t.check(`after a kill at ${label} inside prepare`, 'no row and gate pass, or one unresolved keyed row and gate refuse', { rows: left.map((r) => [r.state, r.idempotencyKey !== null]), gate: gate.decision }, clean || kept);
}

async function checkAfterSettleKill(t: TrialContext, client: JournalClient, prepare: OpParams<'prepare'>, result: RecordedResult, label: string): Promise<void> {
  const scope = prepare.correlation.kind === 'run' ? prepare.correlation : null;
  if (!scope) return;
  const left = nodeRows(await rows(client), scope.runId, scope.nodeId);
  const gate = await client.op('gate', { scope: { kind: 'run', runId: scope.runId, nodeId: scope.nodeId }, attempt: 1 });
  const row = left[0];
  let replayed: unknown = null;
  if (row?.state === 'committed' && gate.decision === 'pass') {
    const again = await client.op('prepare', prepare);
    replayed = again.verdict === 'replay' ? again.result : again.verdict;
  }
  const stillPrepared = left.length === 1 && isUnresolved(row) && gate.decision === 'refuse';
  const committedWhole = left.length === 1 && row?.state === 'committed' && isDeepStrictEqual(replayed, result);
  t.check(`after a kill at ${label} inside settle`, 'still prepared and gate refuse, or committed with the whole result replayed', { rows: left.map((r) => [r.state, r.resultRetained]), gate: gate.decision, replayed: replayed !== null }, stillPrepared || committedWhole);
}
