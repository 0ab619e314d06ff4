// Kills inside open: strace SIGKILLs a restarted driver at every write its open makes to the journal's files, plain write(2) included.
import { cpSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { defineScenario, type Scenario } from './define.js';
import { defaultPrepare, isUnresolved, nodeRows, rows, seedRows } from './support.js';
import { DURABLE_SYSCALLS, traceeKilled, underStrace, type SyscallEvent } from '../harness/engine/syscall-sweep.js';
import { WRITE_SYSCALLS } from '../harness/world/written-files.js';
import { DEFAULT_MAPPING, deriveProjections } from '../harness/engine/projections.js';
import { gateFor } from '../harness/engine/harness-gate.js';
import { proceeded } from '../harness/engine/setup-verdict.js';
import { JournalOpError, type JournalClient } from '../harness/engine/journal-client.js';
import type { TrialContext } from '../harness/engine/trial-context.js';

export const blind2OpenSweep: Scenario[] = [
  defineScenario({
    id: 'blind2.open.kill-every-write',
    title: 'SIGKILL at every write a restarted driver\'s open makes to the journal\'s files: everything the journal held before it is still there',
    spec: 'effect-journal §10 (process-crash durability), §4, §9, §11 (open clears legacy session results and checkpoints), §12.2–§12.5',
    tags: ['crash-matrix', 'write-sweep', 'run', 'blind2'],
    needs: ['harness:strace'],
    description:
      'A journal is left as a crash leaves it for the next start: run R0 committed an effect and reached its terminal (its row swept, its result freed), run R has a committed ' +
      'effect with a retained result at node-a and an unresolved one at node-b, and (with sessions and seeding) an older writer left a session row holding a result, which the ' +
      'next open must clear. A calibration driver opens a copy under strace and records every write its open makes to a file of the journal directory: pwrite/fsync-family ' +
      'syscalls and plain write(2) too, so a journal that compacts, migrates or rewrites its files at open in place is killed between truncating and rewriting them. For each ' +
      'of them a fresh driver opens a fresh copy and is SIGKILLed by strace exactly there; a new driver then opens the copy and must find what was there before the restart.',
    asserts: [
      'each kill happened inside open',
      'afterwards the journal opens; R/node-a is committed, the gate passes and the re-run replays the recorded result; R/node-b is unresolved and the gate refuses',
      'the legacy session row is still there (its result may be cleared)',
    ],
    async trial(t) {
      const laid = join(t.dir, 'laid');
      const f = await lay(t, laid);
      const window = await calibrate(t, f, laid);
      for (const [i, event] of window.entries()) {
        const dir = join(t.dir, `point-${i + 1}`);
        const log = join(t.dir, `point-${i + 1}.strace`);
        cpSync(laid, dir, { recursive: true });
        t.plannedKills += 1;
        const label = `${event.syscall}#${event.invocation} on ${event.file}`;
        // Fresh processes started ahead while the previous one works, as the write sweep does: the inspector beside the victim.
        t.startAhead('primary', { skip: 1 });
        const victim = await t.driver('victim', { journalDir: dir, launch: victimLaunch(t, window, i), armed: [], open: false });
        if (!(await diesInOpen(t, victim, dir, label, log))) continue;
        if (i + 1 < window.length) t.startAhead('victim', { launch: victimLaunch(t, window, i + 1) });
        const after = await openOrFail(t, dir, `after a kill at ${label} inside open`);
        if (after === null) return;
        const held = await check(t, after, f, `after a kill at ${label} inside open`);
        await after.close();
        // The first kill point that lost a row has made the point: the rest would only cost drivers and kills.
        if (!held) return;
      }
    },
  }),
];

// The victim of kill point i: under strace, SIGKILLed at that point's syscall, logging to its own file.
function victimLaunch(t: TrialContext, window: readonly KillPoint[], i: number): ReturnType<typeof underStrace> {
  const { syscall, invocation, files } = window[i]!;
  const dir = join(t.dir, `point-${i + 1}`);
  return underStrace(t.launch, { log: join(t.dir, `point-${i + 1}.strace`), kill: { syscall, invocation }, trace: KILLABLE, paths: files.map((f) => join(dir, f)) });
}

/** A syscall of open to kill at, with the journal files (relative to its directory) whose calls strace counts. */
interface KillPoint extends SyscallEvent {
  readonly file: string;
  readonly files: readonly string[];
}

interface Laid {
  readonly runId: string;
  readonly prepare: ReturnType<typeof defaultPrepare>;
  readonly result: ReturnType<typeof deriveProjections>;
  readonly legacy: boolean;
}

// strace injects only into syscalls it traces: the victims trace these, plain write(2) included.
const KILLABLE = [...DURABLE_SYSCALLS, 'write', 'writev'];
const RESULT = deriveProjections('http_request', `{"echo":"${'y'.repeat(80)}","tail":"END"}`, DEFAULT_MAPPING);
const SID = 'sess-open-sweep';

// Leaves the directory as a crashed engine's restart finds it, closed cleanly (so every copy starts from the same bytes).
async function lay(t: TrialContext, dir: string): Promise<Laid> {
  const client = await t.driver('setup', { journalDir: dir, armed: [] });
  const r0 = t.rng.id('run');
  const v0 = await client.op('prepare', defaultPrepare(t, r0, 'node-a'));
  await client.op('settle', { effectId: proceeded(v0, 'the swept run\'s effect'), state: 'committed', result: RESULT });
  await client.op('runTerminal', { runId: r0 });
  const runId = t.rng.id('run');
  const prepare = defaultPrepare(t, runId, 'node-a');
  const va = await client.op('prepare', prepare);
  await client.op('settle', { effectId: proceeded(va, 'the committed effect'), state: 'committed', result: RESULT });
  proceeded(await client.op('prepare', defaultPrepare(t, runId, 'node-b')), 'the unresolved effect');
  const legacy = t.capabilities.sessions && t.capabilities.seeding;
  if (legacy) {
    const resultJson = JSON.stringify({ modelValue: 'legacy', truncated: false, summary: 's', outputMappingResult: null });
    await seedRows(t, client, [{ scope: { kind: 'session', sessionId: SID, turn: 0 }, slot: 0, toolId: 'http_request', tier: 3, state: 'committed', argsDigest: `v5:${'b'.repeat(64)}`, callId: 'eng-open-1', resultJson }]);
  }
  await client.close();
  return { runId, prepare, result: RESULT, legacy };
}

// Opens a copy under strace (logging only) and returns the writes its open made to the journal directory's files.
async function calibrate(t: TrialContext, f: Laid, laid: string): Promise<KillPoint[]> {
  const dir = join(t.dir, 'calibration');
  cpSync(laid, dir, { recursive: true });
  const log = join(t.dir, 'calibration.strace');
  const client = await t.driver('calibration', { journalDir: dir, launch: underStrace(t.launch, { log, trace: WRITE_SYSCALLS, decodeFds: true }), armed: [], open: false });
  // Lines so far, the empty string after the last newline aside: the next line strace writes is open's first.
  const sofar = rawLines(log);
  const before = sofar.at(-1) === '' ? sofar.length - 1 : sofar.length;
  client.openedFiles = (await client.op('open', { dir, armedCrashPoints: [] })).files;
  const { window, files } = writesUnder(rawLines(log), before, dir);
  // The control: an open nobody killed leaves what the checks below ask for, so a failure after a kill is the kill's.
  await check(t, client, f, 'after an open nobody killed');
  await client.close();
  const names = files.map((p) => relative(dir, p));
  return window.map((e) => ({ syscall: e.syscall, invocation: e.invocation, file: relative(dir, e.path) || '.', files: names }));
}

// Sends open to the victim; true when strace's SIGKILL ended it there (recorded as a kill with the proof of its tree).
async function diesInOpen(t: TrialContext, victim: JournalClient, dir: string, label: string, log: string): Promise<boolean> {
  try {
    await victim.op('open', { dir, armedCrashPoints: [] });
    t.inconclusiveReason ??= `the driver finished open without reaching ${label}, the write the calibration saw there: its writes differ between identical opens`;
  } catch (err) {
    if (err instanceof JournalOpError) t.failConclusively('open answers a result on the same bytes the calibration opened', 'a result', err.message);
    const exit = await victim.handle.kill();
    const signal = exit.signal === 'SIGKILL' || traceeKilled(log) ? 'SIGKILL' : exit.signal;
    if (signal === 'SIGKILL') {
      t.recordKill(victim, { planned: `syscall:${label}`, point: `syscall:${label}`, seq: victim.handle.seq, signal, driver: victim.label }, exit);
      return true;
    }
  }
  await victim.handle.kill();
  return false;
}

// A journal a kill inside open left unopenable has lost every row it held: a failure, not an inconclusive trial.
async function openOrFail(t: TrialContext, dir: string, label: string): Promise<JournalClient | null> {
  try {
    return await t.driver('primary', { journalDir: dir, armed: [] });
  } catch (err) {
    if (!(err instanceof JournalOpError)) throw err;
    t.failConclusively(`${label}: the journal opens (§10: a process crash loses nothing acknowledged)`, 'open answers its files', err.message);
    return null;
  }
}

async function check(t: TrialContext, c: JournalClient, f: Laid, label: string): Promise<boolean> {
  const all = await rows(c);
  const [a, b] = [nodeRows(all, f.runId, 'node-a'), nodeRows(all, f.runId, 'node-b')];
  const gateA = await gateFor(t, c, { kind: 'run', runId: f.runId, nodeId: 'node-a' });
  const gateB = await gateFor(t, c, { kind: 'run', runId: f.runId, nodeId: 'node-b' });
  let replayed: unknown = null;
  if (gateA.decision === 'pass') {
    const again = await c.op('prepare', f.prepare);
    replayed = again.verdict === 'replay' ? again.result : again.verdict;
  }
  const legacyRows = all.filter((r) => r.scope.kind === 'session' && r.scope.sessionId === SID).length;
  const held = a.length === 1 && a[0]?.state === 'committed' && gateA.decision === 'pass' && isDeepStrictEqual(replayed, f.result)
    && b.length === 1 && isUnresolved(b[0]) && gateB.decision === 'refuse' && legacyRows === (f.legacy ? 1 : 0);
  const actual = { nodeA: a.map((r) => r.state), gateA: gateA.decision, replayed: isDeepStrictEqual(replayed, f.result) ? 'the recorded result' : replayed, nodeB: b.map((r) => r.state), gateB: gateB.decision, legacySessionRows: legacyRows };
  return t.check(label, { nodeA: ['committed'], gateA: 'pass', replayed: 'the recorded result', nodeB: ['prepared, ambiguous or needs_attention'], gateB: 'refuse', legacySessionRows: f.legacy ? 1 : 0 }, actual, held);
}

function rawLines(log: string): string[] {
  return readFileSync(log, 'utf8').split('\n');
}

// The kill points of open: every killable syscall after line `from` on a file under `dir` (or the directory itself,
// fsynced), numbered as strace's when= counts them for a victim traced with -P on those same files: per tracee, among
// the calls on those files only (plain write(2) is also the runtime's eventfd and the protocol's pipe).
function writesUnder(lines: readonly string[], from: number, dir: string): { window: Array<SyscallEvent & { path: string }>; files: string[] } {
  const killable = new Set<string>(KILLABLE);
  const calls = lines.flatMap((line, i) => {
    const m = /^(\d+)\s+([a-z0-9_]+)\((?:\d+)<([^>]*)>/.exec(line);
    // A SQLite -shm is the WAL's index, rebuilt from the WAL by the next opener: no state a kill there could tear.
    if (!m || !killable.has(m[2]!) || m[3]!.endsWith('-shm') || (m[3] !== dir && !m[3]!.startsWith(`${dir}/`))) return [];
    return [{ line: i, tracee: m[1]!, syscall: m[2]!, path: m[3]! }];
  });
  const files = [...new Set(calls.filter((c) => c.line >= from).map((c) => c.path))];
  const counters = new Map<string, number>();
  const window: Array<SyscallEvent & { path: string }> = [];
  for (const c of calls) {
    if (!files.includes(c.path)) continue;
    const key = `${c.tracee}:${c.syscall}`;
    const invocation = (counters.get(key) ?? 0) + 1;
    counters.set(key, invocation);
    if (c.line >= from) window.push({ syscall: c.syscall, invocation, path: c.path });
  }
  return { window, files };
}
