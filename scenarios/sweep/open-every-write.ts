// Kills inside open: strace SIGKILLs a restarted driver at every write its open makes to the journal's files, plain write(2) included.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { defaultPrepare, isUnresolved, nodeRows, resultMarker, rows, scanCanaries, seedRows } from '../support.js';
import { NAMESPACE_SYSCALLS, syscallsAfter, traceeKilled, underStrace, type SyscallEvent } from '../../harness/engine/syscall-sweep.js';
import { fileWriteVictim, nextLine, rawLines, stablePoints, type FileWritePoint } from '../../harness/engine/file-write-points.js';
import { WRITE_SYSCALLS } from '../../harness/world/written-files.js';
import { DEFAULT_MAPPING, deriveProjections } from '../../harness/engine/projections.js';
import { proceeded } from '../../harness/engine/setup-verdict.js';
import { JournalOpError, type JournalClient } from '../../harness/engine/journal-client.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';

export const blind2OpenSweep: Scenario[] = [
  defineScenario({
    id: 'sweep.open.every-write',
    title: 'SIGKILL at every write a restarted driver\'s open makes to the journal\'s files: everything the journal held before it is still there',
    spec: 'effect-journal §10 (process-crash durability), §4, §9, §11 (open clears legacy session results and checkpoints), §12.2–§12.5',
    tags: ['crash-matrix', 'write-sweep', 'run'],
    needs: ['harness:strace'],
    description:
      'A journal is left as a crash leaves it for the next start: run R0 committed an effect and reached its terminal (its row swept, its result freed), run R has a committed ' +
      'effect with a retained result at node-a and an unresolved one at node-b, and (with sessions and seeding) an older writer left a session row holding a result, which the ' +
      'next open must clear. A calibration driver opens a copy under strace and records every write its open makes to a file of the journal directory: pwrite/fsync-family ' +
      'syscalls and plain write(2) too, so a journal that compacts, migrates or rewrites its files at open in place is killed between truncating and rewriting them; a second ' +
      'identical open tells which files keep their names (only those can be aimed at: a temporary file named after a pid or a random suffix cannot), and every rename, link, ' +
      'unlink and truncate of the open is a kill point too, wherever it is, so a file staged under any name and renamed into place is killed between its unlink and its rename. For each ' +
      'of them a fresh driver opens a fresh copy and is SIGKILLed by strace exactly there; a new driver then opens the copy and must find what was there before the restart.',
    asserts: [
      'each kill happened inside open',
      'afterwards the journal opens; R/node-a is committed, the gate passes and the re-run replays the recorded result; R/node-b is unresolved and the gate refuses',
      'the legacy session row is still there (its result may be cleared)',
      'right after that open, neither the swept run\'s result nor the legacy session result is in any file of the journal',
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
        const label = 'file' in event ? `${event.syscall}#${event.invocation} on ${event.file}` : `${event.syscall}#${event.invocation}`;
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

// A write to one of the journal's files, counted among the calls on those files (-P), or a rename, link, unlink or
// truncate, counted per tracee over every path as strace counts it untraced by path (a store that writes a temporary
// file and renames it into place commits at the rename, whatever the temporary file is called).
type OpenPoint = FileWritePoint | SyscallEvent;

// The victim of kill point i: under strace, SIGKILLed at that point's syscall, logging to its own file.
function victimLaunch(t: TrialContext, window: readonly OpenPoint[], i: number): ReturnType<typeof underStrace> {
  const [point, dir, log] = [window[i]!, join(t.dir, `point-${i + 1}`), join(t.dir, `point-${i + 1}.strace`)];
  return 'file' in point ? fileWriteVictim(t.launch, point, dir, log) : underStrace(t.launch, { log, kill: point, trace: NAMESPACE_SYSCALLS });
}

interface Laid {
  readonly runId: string;
  readonly prepare: ReturnType<typeof defaultPrepare>;
  readonly result: ReturnType<typeof deriveProjections>;
  readonly legacy: boolean;
  /** Markers of bytes freed before the open (R0's swept result) or freed by it (the legacy session result). */
  readonly freed: readonly string[];
}

const RESULT = deriveProjections('http_request', `{"echo":"${'y'.repeat(80)}","tail":"END"}`, DEFAULT_MAPPING);
const SID = 'sess-open-sweep';

// Leaves the directory as a crashed engine's restart finds it, closed cleanly (so every copy starts from the same bytes).
async function lay(t: TrialContext, dir: string): Promise<Laid> {
  const client = await t.driver('setup', { journalDir: dir, armed: [] });
  const freed = [resultMarker(t)];
  const r0 = t.rng.id('run');
  const v0 = await client.op('prepare', defaultPrepare(t, r0, 'node-a'));
  await client.op('settle', { effectId: proceeded(v0, 'the swept run\'s effect'), state: 'committed', result: deriveProjections('http_request', `{"echo":"${freed[0]!}","tail":"END"}`, DEFAULT_MAPPING) });
  await client.op('runTerminal', { runId: r0 });
  const runId = t.rng.id('run');
  const prepare = defaultPrepare(t, runId, 'node-a');
  const va = await client.op('prepare', prepare);
  await client.op('settle', { effectId: proceeded(va, 'the committed effect'), state: 'committed', result: RESULT });
  proceeded(await client.op('prepare', defaultPrepare(t, runId, 'node-b')), 'the unresolved effect');
  const legacy = t.capabilities.sessions && t.capabilities.seeding;
  if (legacy) {
    freed.push(resultMarker(t));
    const resultJson = JSON.stringify({ modelValue: `legacy ${freed[1]!}`, truncated: false, summary: 's', outputMappingResult: null });
    await seedRows(t, client, [{ scope: { kind: 'session', sessionId: SID, turn: 0 }, slot: 0, toolId: 'http_request', tier: 3, state: 'committed', argsDigest: `v5:${'b'.repeat(64)}`, callId: 'eng-open-1', resultJson }]);
  }
  await client.close();
  return { runId, prepare, result: RESULT, legacy, freed };
}

// Opens a copy under strace (logging only) and returns the kill points of its open: the writes it made to the journal
// directory's files, where a second identical open names the file alike (-P takes exact paths: a temporary file named
// after a pid or a random suffix cannot be aimed at), and its renames, links, unlinks and truncates wherever they are.
async function calibrate(t: TrialContext, f: Laid, laid: string): Promise<OpenPoint[]> {
  const first = await traceOpen(t, laid, 'calibration');
  // The control: an open nobody killed leaves what the checks below ask for, so a failure after a kill is the kill's.
  await check(t, first.client, f, 'after an open nobody killed');
  await first.client.close();
  const second = await traceOpen(t, laid, 'calibration-2');
  await second.client.close();
  const { stable, unstable } = stablePoints(first, second);
  if (unstable > 0) t.check('writes inside open, swept where the file is named alike in two identical opens', 'the rest', `${stable.length} swept, ${unstable} to files named differently`, true);
  const named = syscallsAfter(second.lines, second.from, NAMESPACE_SYSCALLS);
  const renames = syscallsAfter(first.lines, first.from, NAMESPACE_SYSCALLS).filter((p) => named.some((q) => q.syscall === p.syscall && q.invocation === p.invocation));
  return [...stable, ...renames];
}

// One open of a fresh copy under strace, every write-family and namespace syscall logged with its fd's path.
async function traceOpen(t: TrialContext, laid: string, name: string): Promise<{ client: JournalClient; lines: string[]; from: number; dir: string }> {
  const dir = join(t.dir, name);
  cpSync(laid, dir, { recursive: true });
  const log = join(t.dir, `${name}.strace`);
  const client = await t.driver('calibration', { journalDir: dir, launch: underStrace(t.launch, { log, trace: [...WRITE_SYSCALLS, ...NAMESPACE_SYSCALLS], decodeFds: true }), armed: [], open: false });
  const from = nextLine(log);
  client.openedFiles = (await client.op('open', { dir, armedCrashPoints: [] })).files;
  return { client, lines: rawLines(log), from, dir };
}

// The renames, links, unlinks and truncates after line `from`, numbered per tracee over the whole log as a victim
// tracing only those syscalls counts them.
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
  // §11: the open clears legacy session results and checkpoints, and later opens retry what a killed one left (protocol.md
  // open); bytes freed before it (R0's sweep) go with that checkpoint. Nothing else holds the journal here, so nothing can
  // defer it: scanned before any other operation, right after the open.
  const hits = await scanCanaries(t, c, f.freed);
  const erased = t.check(`${label}: copies of the swept run result${f.legacy ? ' and the legacy session result' : ''} right after the open`, 0, hits, hits === 0);
  const all = await rows(c);
  const [a, b] = [nodeRows(all, f.runId, 'node-a'), nodeRows(all, f.runId, 'node-b')];
  const gateA = await c.op('gate', { scope: { kind: 'run', runId: f.runId, nodeId: 'node-a' }, attempt: 1 });
  const gateB = await c.op('gate', { scope: { kind: 'run', runId: f.runId, nodeId: 'node-b' }, attempt: 1 });
  let replayed: unknown = null;
  if (gateA.decision === 'pass') {
    const again = await c.op('prepare', f.prepare);
    replayed = again.verdict === 'replay' ? again.result : again.verdict;
  }
  const legacyRows = all.filter((r) => r.scope.kind === 'session' && r.scope.sessionId === SID).length;
  const held = a.length === 1 && a[0]?.state === 'committed' && gateA.decision === 'pass' && isDeepStrictEqual(replayed, f.result)
    && b.length === 1 && isUnresolved(b[0]) && gateB.decision === 'refuse' && legacyRows === (f.legacy ? 1 : 0);
  const actual = { nodeA: a.map((r) => r.state), gateA: gateA.decision, replayed: isDeepStrictEqual(replayed, f.result) ? 'the recorded result' : replayed, nodeB: b.map((r) => r.state), gateB: gateB.decision, legacySessionRows: legacyRows };
  return t.check(label, { nodeA: ['committed'], gateA: 'pass', replayed: 'the recorded result', nodeB: ['prepared, ambiguous or needs_attention'], gateB: 'refuse', legacySessionRows: f.legacy ? 1 : 0 }, actual, held) && erased;
}
