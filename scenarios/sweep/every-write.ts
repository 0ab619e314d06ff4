// Every durable write: SIGKILL inside an operation at each write/fsync syscall strace observed there.
import { join } from 'node:path';
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { DURABLE_SYSCALLS, NAMESPACE_SYSCALLS, syscallsAfter, traceeKilled, underStrace, type SyscallEvent } from '../../harness/engine/syscall-sweep.js';
import { fileWritePoints, fileWriteVictim, nextLine, rawLines, stablePoints, type FileWritePoint } from '../../harness/engine/file-write-points.js';
import { traceLines, WRITE_SYSCALLS, writeTargets } from '../../harness/world/written-files.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import { JournalOpError, type JournalClient } from '../../harness/engine/journal-client.js';
import { SWEEP_CASES, type SweepCase } from './cases.js';

export const sweepEveryWrite: Scenario[] = SWEEP_CASES.map(sweepScenario);

// strace kills at a syscall, wherever the journal is: a crash point held and resumed inside the op would only add a
// round trip (and strace stops) per point, so none is armed; the durable syscalls it counts are the same either way.
const UNARMED = { armed: [] } as const;

/** The every-write sweep scenario of one operation (the cases of sweep-cases.ts, and those of scenarios/sweep/). */
export function sweepScenario<F>(c: SweepCase<F>): Scenario {
  return defineScenario({
    id: `sweep.${c.slug}.every-write`,
    title: `SIGKILL at every durable write syscall inside ${c.op}`,
    spec: c.spec,
    tags: ['crash-matrix', 'write-sweep', c.scope],
    needs: ['harness:strace', ...c.needs],
    description:
      `${c.setupText} A calibration driver runs this under strace and records every pwrite/fsync-family syscall and every rename, link, unlink and truncate of the ${c.op} itself, and every plain write(2) it makes to a file of the journal directory that a second identical run names alike (a file overwritten in place is killed between its truncation and its bytes; a log, between two appends). Then, for each of them, a fresh driver on a fresh journal repeats the sequence and is SIGKILLed by strace exactly at that syscall, and a new driver inspects what the kill left. ` +
      'No crash window inside the operation is left unexplored, whether or not the implementation announces crash points.',
    asserts: [`each kill happened inside the ${c.op}`, c.invariant],
    async trial(t) {
      const fixture = c.fixture(t);
      const window = await calibrate(t, c, fixture);
      if (window.length === 0) return;
      for (const [i, point] of window.entries()) {
        const dir = join(t.dir, `point-${i + 1}`);
        const log = join(t.dir, `point-${i + 1}.strace`);
        t.plannedKills += 1;
        const label = 'file' in point ? `${point.syscall}#${point.invocation} on ${point.file}` : `${point.syscall}#${point.invocation}`;
        // Drivers start ahead while the previous one works (fresh processes, nothing reused across the kill):
        // the one that inspects what the kill left starts alongside the victim.
        t.startAhead('primary', { skip: 1 });
        const victim = await t.driver('victim', { journalDir: dir, launch: victimLaunch(t, i, window), ...UNARMED });
        if (!(await diesInside(t, victim, c, fixture, label, log))) continue;
        const after = await t.driver('primary', { journalDir: dir, ...UNARMED });
        if (i + 1 < window.length) t.startAhead('victim', { launch: victimLaunch(t, i + 1, window) });
        await c.check(t, after, fixture, `after a kill at ${label} inside ${c.op}`);
        await after.close();
        // A kill that broke the invariant has made the point: the remaining points would only cost drivers.
        if (t.assertions.some((a) => !a.passed)) break;
      }
    },
  });
}

// A durable syscall, counted per tracee over every file as strace counts it untraced by path, or a plain write(2) to
// one of the journal's files, counted among the calls on those files only (-P: the pipe and the eventfds write too).
type KillPoint = SyscallEvent | FileWritePoint;
const PLAIN_WRITES = ['write', 'writev'];
// Counted untraced by path: every durable write, and every rename, link, unlink and truncate, the commits of a store
// that keeps a file per row (between an unlink and the rename that should replace it, a row has no file at all).
const KILLABLE: readonly string[] = [...DURABLE_SYSCALLS, ...NAMESPACE_SYSCALLS];

// The victim of kill point i: under strace, SIGKILLed at that point's syscall, logging to its own file.
function victimLaunch(t: TrialContext, i: number, window: readonly KillPoint[]): ReturnType<typeof underStrace> {
  const [point, dir, log] = [window[i]!, join(t.dir, `point-${i + 1}`), join(t.dir, `point-${i + 1}.strace`)];
  return 'file' in point ? fileWriteVictim(t.launch, point, dir, log, PLAIN_WRITES) : underStrace(t.launch, { log, kill: point, trace: KILLABLE });
}

// Runs the sequence once under strace (logging only) and returns the kill points of the op itself: its durable
// syscalls, then its plain write(2)s to the journal's files (a journal that rewrites a file in place is killed
// between truncating and rewriting it; one that appends, between two records). Every write-family syscall is traced
// with its fd's path, so an empty window can be judged: a journal that stores nothing inside the op breaks its clause
// (failed); one that stores in a way the sweep cannot kill at, or a trace that saw nothing at all, leaves the trial
// inconclusive.
async function calibrate<F>(t: TrialContext, c: SweepCase<F>, fixture: F): Promise<KillPoint[]> {
  const first = await traceOnce(t, c, fixture, 'calibration');
  const inOp = first.lines.slice(first.from);
  const durable = syscallsAfter(first.lines, first.from, KILLABLE);
  const inside = writeTargets(traceLines(inOp));
  const traced = writeTargets(traceLines(first.lines)).protocol > 0;
  let plain: FileWritePoint[] = fileWritePoints(first.lines, first.from, first.dir, PLAIN_WRITES);
  if (plain.length > 0) {
    // A second identical run tells which files keep their names: only those can be aimed at (-P takes exact paths).
    const second = await traceOnce(t, c, fixture, 'calibration-2');
    const { stable, unstable } = stablePoints(first, second, PLAIN_WRITES);
    // What the sweep covers, in the report: temporary names (written, fsynced, then renamed into place) cannot be aimed at.
    t.check(`plain write(2)s to the journal's files inside ${c.op}, swept where the file is named alike in two identical runs`, `${plain.length} written`, `${stable.length} swept, ${unstable} to files named differently`, true);
    plain = stable;
  }
  const window: KillPoint[] = [...durable, ...plain];
  if (durable.length > 0) t.check(`durable syscalls strace observed inside ${c.op}`, '> 0', durable.length, true);
  if (window.length > 0) return window;
  if (inside.plainFileWrites > 0 || inside.elsewhere > 0) {
    t.inconclusiveReason = `${c.op} stored its bytes without a pwrite/fsync-family syscall and without a plain write(2) to a file named alike in two identical runs (${inside.plainFileWrites} plain write(2) to files, ${inside.elsewhere} to pipes, sockets or mappings): the sweep cannot kill at those, nothing to sweep`;
  } else if (!traced) {
    t.inconclusiveReason = `strace recorded nothing of the driver, not even its protocol responses: the trace failed, so no write inside ${c.op} could be seen`;
  } else if (c.mayWriteNothing !== undefined) {
    // Nothing written, nothing a kill could tear: what must hold is checked once, by a fresh driver on what it left.
    t.check(`${c.op} wrote nothing to the journal's files, so no kill inside it can tear a write`, `no write demanded (${c.mayWriteNothing})`, `none: strace traced the driver (${inside.protocol} protocol write(s) during ${c.op})`, true);
    const after = await t.driver('primary', { journalDir: first.dir, ...UNARMED });
    await c.check(t, after, fixture, `after ${c.op}, which wrote nothing`);
    await after.close();
  } else {
    t.failConclusively(`${c.op} makes a durable write (${c.spec})`, `a pwrite/fsync-family syscall inside ${c.op}`, `none: strace traced the driver (${inside.protocol} protocol write(s) during ${c.op}) and saw no write of any kind to a file`);
  }
  return window;
}

// One uninterrupted run of the sequence under strace, every write-family syscall logged with its fd's path: the log as
// it stood when the op answered (close checkpoints, and its syncs are no part of the op), and where the op's part begins.
async function traceOnce<F>(t: TrialContext, c: SweepCase<F>, fixture: F, name: string): Promise<{ log: string; dir: string; lines: string[]; from: number }> {
  const [log, dir] = [join(t.dir, `${name}.strace`), join(t.dir, name)];
  const launch = underStrace(t.launch, { log, trace: [...WRITE_SYSCALLS, ...NAMESPACE_SYSCALLS], decodeFds: true });
  const client = await t.driver('calibration', { journalDir: dir, launch, ...UNARMED });
  const state = await c.setup(client, fixture);
  const from = nextLine(log);
  await c.run(client, fixture, state);
  const lines = rawLines(log);
  await client.close();
  return { log, dir, lines, from };
}

// Repeats the sequence on the victim; true when it died by SIGKILL inside the op (recorded as a kill).
async function diesInside<F>(t: TrialContext, victim: JournalClient, c: SweepCase<F>, fixture: F, label: string, log: string): Promise<boolean> {
  let reachedOp = false;
  try {
    const state = await c.setup(victim, fixture);
    reachedOp = true;
    await c.run(victim, fixture, state);
    t.inconclusiveReason ??= `the driver finished ${c.op} without reaching ${label}, the syscall the calibration saw there: its writes differ between identical runs`;
  } catch (err) {
    // The same requests the calibration answered, on a fresh journal: an error here is the journal's own answer.
    if (err instanceof JournalOpError) t.failConclusively(`${err.op} answers a result, as ${c.spec} needs here`, 'a result', err.message);
    // A wrapper (a shell, a version shim) may outlive the tracee and exit 137: strace's log is the evidence.
    const exit = await victim.handle.kill();
    const signal = exit.signal === 'SIGKILL' || traceeKilled(log) ? 'SIGKILL' : exit.signal;
    if (reachedOp && signal === 'SIGKILL') {
      // The same proof as a harness kill: the whole tree found, killed and proven gone, nothing holding the journal.
      t.recordKill(victim, { planned: `syscall:${label}`, point: `syscall:${label}`, seq: victim.handle.seq, signal, driver: victim.label }, exit);
      return true;
    }
  }
  await victim.handle.kill();
  return false;
}
