// One spawned driver process: protocol framing, per-call timeouts, crash point hand-off, and ending its whole tree with proof.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { EjcError, ProtocolViolation } from '../../shared/errors.js';
import type { HelloResult, OperationName, OpParams } from '../../shared/protocol/schemas.js';
import { releaseFaketimePair } from '../clock/faketime-shared.js';
import { decodeLine } from './decode.js';
import type { SpawnSpec } from './launch.js';
import { MARK_VAR, procAvailable, readProc, scanProcesses } from './proc-scan.js';
import { killTrees, treeOf, type KilledProc } from './process-tree.js';
import { newDriverMark, registerDriver, unregisterDriver, type LiveDriver } from './registry.js';
import { endTree, type TreeEnd } from './tree-end.js';
import { StderrRing } from './stderr-log.js';
import { LineBuffer, MAX_LINE_BYTES } from './stream-lines.js';
import type { CallOutcome, DriverHandle, ExitInfo, StartDriverOptions } from './types.js';

/**
 * The zone every driver runs in: not UTC, not a whole hour away from it, and without daylight saving, so a journal that
 * writes local time and calls it UTC (a naive datetime.now() with a 'Z', a hand-made offset) records times 5 h 45 min
 * off, where the contract's timestamps (a resolution's `at`) are checked against the harness's clock. A CI machine
 * in UTC would hide that, and a harness whose zone decides a verdict would not repeat across machines.
 */
export const DRIVER_TZ = 'Asia/Kathmandu';

type AnyOutcome = CallOutcome<OperationName>;
type LeaderExit = Pick<ExitInfo, 'signal' | 'exitCode' | 'killedByHarness'>;
interface Current { readonly op: OperationName; readonly id: number; readonly timeoutMs: number; blocked: boolean; crashSeq: number }
interface Waiter { resolve(outcome: AnyOutcome): void; reject(err: Error): void; timer: NodeJS.Timeout }

/** Spawns the driver in its own session and group, marked in its environment, as a DriverHandle (hello not yet exchanged). */
export function spawnDriver(spec: SpawnSpec, opts: StartDriverOptions): DriverProcess {
  return new DriverProcess(spec, opts);
}

export class DriverProcess implements DriverHandle {
  #label: string;
  readonly pid: number;
  readonly violations: ProtocolViolation[] = [];
  readonly exited: Promise<ExitInfo>;
  private helloResult: HelloResult | null = null;
  private seqCount = 0;
  private nextId = 0;
  private current: Current | null = null;
  private waiter: Waiter | null = null;
  /** Set as soon as the leader is reaped; the tree's proof follows before `exited` resolves. */
  private leaderExit: LeaderExit | null = null;
  private killRequested = false;
  private failure: EjcError | null = null;
  /** The processes the harness's kill found and SIGKILLed together, for the proof once the leader is reaped. */
  private killedAtOnce: KilledProc[] | null = null;
  private readonly stdoutLines = new LineBuffer();
  private readonly stderr: StderrRing;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly entry: LiveDriver;
  private resolveExited: (info: ExitInfo) => void = () => undefined;
  private readonly confined: boolean;

  constructor(spec: SpawnSpec, private readonly opts: StartDriverOptions) {
    this.#label = opts.label;
    this.stderr = new StderrRing(opts.stderrFile, 500, opts.stderrFileLimit);
    this.exited = new Promise((resolve) => (this.resolveExited = resolve));
    this.confined = spec.confined;
    const mark = newDriverMark();
    // detached: the driver leads its own session and group; the mark finds the processes that leave them. Plain
    // child_process, not execa: its promise, buffering and signal plumbing cost about a millisecond of the harness's
    // CPU per driver, and the harness reads the streams itself. The environment extends the harness's; a variable
    // given as undefined is left out.
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn(spec.file, spec.args, { cwd: opts.cwd, env: { ...process.env, TZ: DRIVER_TZ, ...opts.env, [MARK_VAR]: mark }, detached: true, stdio: 'pipe' });
    } catch (err) {
      releaseFaketimePair(opts.env?.['FAKETIME_SHARED']);
      throw new EjcError('driver_start_failed', `${this.label}: could not spawn the ${spec.describe}: ${(err as Error).message}`, { cause: err });
    }
    this.child = child;
    // A spawn that failed (ENOENT, EACCES) reports it here as well, after pid came back undefined.
    child.on('error', () => undefined);
    if (child.pid === undefined) throw new EjcError('driver_start_failed', `${this.label}: could not spawn the ${spec.describe}`);
    this.pid = child.pid;
    // Its start time bounds the search: nothing it started can be older than the driver itself.
    this.entry = { pgid: this.pid, mark, since: readProc(this.pid)?.start ?? 0, dirs: new Set(), externalState: null, wrapped: spec.confined };
    registerDriver(this.entry);
    const closed = [this.child.stdout, this.child.stderr].map((s) => new Promise<void>((r) => s.once('close', () => r())));
    // Always drain both pipes, so a chatty driver never blocks on a full pipe.
    this.child.stdout.on('data', (chunk: Buffer | string) => this.onStdout(chunk));
    this.child.stderr.on('data', (chunk: Buffer | string) => this.stderr.push(chunk));
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) stream.on('error', () => undefined);
    const tap = opts.onOutput;
    if (tap !== undefined) {
      this.child.stdout.on('data', (chunk: Buffer | string) => tap('stdout', chunk));
      this.child.stderr.on('data', (chunk: Buffer | string) => tap('stderr', chunk));
    }
    this.child.once('exit', (code, signal) => void this.onExit(code, signal, Promise.all(closed)));
  }

  get label(): string {
    return this.#label;
  }

  /** A driver started ahead takes the name of the call that uses it, and its stderr log follows (see TrialContext). */
  rename(label: string, stderrFile?: string): void {
    this.#label = label;
    if (stderrFile !== undefined) this.stderr.moveTo(stderrFile);
  }

  get hello(): HelloResult {
    if (this.helloResult === null) throw new EjcError('internal', `${this.label}: hello has not been exchanged yet`);
    return this.helloResult;
  }

  setHello(hello: HelloResult): void {
    this.helloResult = hello;
    this.entry.externalState = hello.capabilities.externalState ?? null;
  }

  get seq(): number {
    return this.seqCount;
  }

  call<O extends OperationName>(op: O, params: OpParams<O>, opts?: { timeoutMs?: number }): Promise<CallOutcome<O>> {
    const dead = this.deadError(op);
    if (dead !== null) return Promise.reject(dead);
    if (this.current !== null) {
      return Promise.reject(new EjcError('internal', `${this.label}: ${op} called while ${this.current.op} is pending (one request at a time)`));
    }
    const id = this.nextId + 1;
    let line: string;
    try {
      line = JSON.stringify({ type: 'request', id, op, params });
    } catch (err) {
      return Promise.reject(new EjcError('internal', `${this.label}: ${op} params are not JSON-serializable`, { cause: err }));
    }
    this.nextId = id;
    // Whatever holds files under an opened directory after a kill is one of this driver's processes.
    if (op === 'open') this.entry.dirs.add((params as OpParams<'open'>).dir);
    const current: Current = { op, id, timeoutMs: opts?.timeoutMs ?? this.opts.timeoutMs, blocked: false, crashSeq: 0 };
    this.current = current;
    const outcome = this.wait(current);
    this.sendLine(line);
    return outcome as Promise<CallOutcome<O>>;
  }

  kill(): Promise<ExitInfo> {
    this.killNow();
    return this.exited;
  }

  async close(): Promise<ExitInfo> {
    if (this.leaderExit !== null || this.killRequested) return this.exited;
    this.child.stdin.end();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<true>((resolve) => (timer = setTimeout(() => resolve(true), this.opts.timeoutMs)));
    const late = await Promise.race([this.exited.then(() => false), timedOut]);
    clearTimeout(timer);
    return late ? this.kill() : this.exited;
  }

  stderrTail(lines = 20): string[] {
    return this.stderr.tail(lines);
  }

  livePids(): number[] {
    if (this.leaderExit !== null || this.killRequested || !procAvailable()) return [];
    return treeOf(this.entry, scanProcesses({ marks: true, since: this.entry.since ?? 0 })).map((p) => p.pid);
  }

  private wait(current: Current): Promise<AnyOutcome> {
    return new Promise<AnyOutcome>((resolve, reject) => {
      const timer = setTimeout(() => this.onTimeout(current), current.timeoutMs);
      this.waiter = { resolve, reject, timer };
    });
  }

  private resume(current: Current): Promise<AnyOutcome> {
    const dead = this.deadError(current.op);
    if (dead !== null) return Promise.reject(dead);
    if (this.current !== current || !current.blocked) {
      return Promise.reject(new EjcError('internal', `${this.label}: resume() of ${current.op} called twice or after the request finished`));
    }
    current.blocked = false;
    const outcome = this.wait(current);
    this.sendLine(JSON.stringify({ type: 'resume', seq: current.crashSeq }));
    return outcome;
  }

  private sendLine(line: string): void {
    this.seqCount++;
    this.opts.onWire?.({ direction: 'send', seq: this.seqCount, line });
    this.child.stdin.write(`${line}\n`);
  }

  private onStdout(chunk: Buffer | string): void {
    if (this.killRequested) return;
    const { lines, overflow } = this.stdoutLines.push(chunk);
    for (const line of lines) {
      // A violation kills the driver; whatever it sent after that is no longer evidence.
      if (this.killRequested) return;
      this.onLine(line);
    }
    if (overflow && !this.killRequested) {
      const op = this.current?.op ?? null;
      const message = `protocol violation in ${op ?? '(no request)'}: a line exceeded ${MAX_LINE_BYTES} bytes without a newline`;
      this.fail(new ProtocolViolation({ op, field: null, line: '(overlong line)', message }));
    }
  }

  private onLine(line: string): void {
    this.seqCount++;
    this.opts.onWire?.({ direction: 'recv', seq: this.seqCount, line });
    const current = this.current;
    const decoded = decodeLine(line, current);
    if (decoded instanceof ProtocolViolation) return this.fail(decoded);
    if (decoded.kind === 'crashpoint' && current !== null) {
      current.blocked = true;
      current.crashSeq = decoded.seq;
      return this.settle({ kind: 'crashpoint', point: decoded.point, seq: this.seqCount, resume: () => this.resume(current) });
    }
    this.current = null;
    if (decoded.kind === 'result') this.settle({ kind: 'result', result: decoded.result as never, seq: this.seqCount });
    else if (decoded.kind === 'error') this.settle({ kind: 'error', code: decoded.code, message: decoded.message, seq: this.seqCount });
  }

  private settle(outcome: AnyOutcome): void {
    const waiter = this.waiter;
    this.waiter = null;
    if (waiter === null) return;
    clearTimeout(waiter.timer);
    waiter.resolve(outcome);
  }

  private onTimeout(current: Current): void {
    const phase = current.crashSeq > 0 ? ' after resuming from a crash point' : '';
    const message = `${this.label}: ${current.op} did not answer within ${current.timeoutMs} ms${phase}; the driver's process tree was killed`;
    this.fail(new EjcError('operation_timeout', message));
  }

  /** Records a fatal protocol failure, kills the tree, and rejects the pending call once the tree is proven gone. */
  private fail(err: EjcError): void {
    if (err instanceof ProtocolViolation) this.violations.push(err);
    this.failure ??= err;
    const waiter = this.waiter;
    this.waiter = null;
    this.killNow();
    if (waiter !== null) {
      clearTimeout(waiter.timer);
      // The caller may count this as a kill: by the time it hears of the failure, nothing of the driver runs.
      void this.exited.then(() => waiter.reject(err));
    }
  }

  private killNow(): void {
    if (this.leaderExit !== null || this.killRequested) return;
    this.killRequested = true;
    // The whole tree is found first and killed in one go: a crash of the journal, not a slow teardown of it.
    this.killedAtOnce = killTrees([this.entry]);
  }

  private async onExit(exitCode: number | null, signal: NodeJS.Signals | null, streamsClosed: Promise<unknown>): Promise<void> {
    const leader: LeaderExit = { signal, exitCode, killedByHarness: this.killRequested };
    this.leaderExit = leader;
    // Whatever the leader left running dies now, then the proof: nothing of the tree runs, nothing holds its files.
    let end: TreeEnd = { processes: 0, escaped: [], survivors: [] };
    try {
      // Confined, a driver SIGKILLed by someone else (strace at a syscall) shows as unshare's or strace's exit code
      // (a namespace's init cannot re-raise SIGKILL on itself): any unclean end is proven like a crash.
      const unclean = this.confined && (exitCode !== 0 || signal !== null);
      end = await endTree(this.entry, this.killedAtOnce, streamsClosed, leader.killedByHarness || signal === 'SIGKILL' || unclean);
    } catch {
      // The proof is best effort only where /proc cannot be read; `exited` must resolve regardless.
    }
    const info: ExitInfo = { ...leader, tree: end };
    // A process the harness does not own (a declared external server) may still hold the pipes: let go of them.
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) stream.destroy();
    this.stderr.finish();
    unregisterDriver(this.pid);
    // A moved-clock driver's own libfaketime pair goes once the driver and its tree are gone.
    releaseFaketimePair(this.opts.env?.['FAKETIME_SHARED']);
    const waiter = this.waiter;
    this.waiter = null;
    if (waiter !== null) {
      clearTimeout(waiter.timer);
      waiter.reject(this.exitError(this.current?.op ?? null, leader));
    }
    this.resolveExited(info);
  }

  private deadError(op: OperationName): EjcError | null {
    if (this.leaderExit === null && !this.killRequested) return null;
    const why = this.failure === null ? '' : ` after ${this.failure.code}`;
    const base = this.exitError(op, this.leaderExit);
    return new EjcError('driver_exited', `${this.label}: cannot send ${op}: the driver is gone${why} (${base.message})`, { cause: this.failure ?? base });
  }

  private exitError(op: OperationName | null, info: LeaderExit | null): EjcError {
    const how = info === null ? 'being killed' : info.signal !== null ? `signal ${info.signal}` : `exit code ${String(info.exitCode)}`;
    const by = info?.killedByHarness === true || (info === null && this.killRequested) ? ' (killed by the harness)' : '';
    const tail = this.stderr.tail(5).join(' | ');
    const during = op === null ? '' : ` during ${op}`;
    return new EjcError('driver_exited', `${this.label}: the driver exited${during}: ${how}${by}${tail === '' ? '' : `; stderr: ${tail}`}`);
  }
}
