// One trial's evidence: drivers it started, kills it made, assertions it checked, and the counts it saw.
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { DriverHandle } from '../driver/types.js';
import { startDriver } from '../driver/start-driver.js';
import type { Capabilities, EffectRow, HelloResult } from '../protocol/schemas.js';
import type { Assertion, Kill, Launch } from '../../reports/schema.js';
import { createRng, type Rng } from '../rng.js';
import { TargetWorld } from '../world/targets.js';
import { EventLog } from './event-log.js';
import { JournalClient } from './journal-client.js';
import { CrashInjected, describePlan, type CrashPlan } from './crash-plan.js';
import type { HistoryEvent, OpAnswer } from '../model/history.js';
import type { OperationName } from '../protocol/schemas.js';
import { EjcError } from '../errors.js';
import { traceeKilled } from './syscall-sweep.js';

/** Decides at each kill opportunity (a boundary or an announced point) whether to kill there: generated crash schedules. */
export interface KillSchedule {
  opportunity(where: string, client: JournalClient): boolean;
}

export interface TrialSetup {
  readonly id: string;
  readonly seed: number;
  readonly dir: string;
  readonly launch: Launch;
  readonly timeoutMs: number;
  readonly capabilities: Capabilities;
}

/** The evidence-collecting context every scenario trial runs in. */
export class TrialContext {
  readonly id: string;
  readonly seed: number;
  readonly dir: string;
  readonly rng: Rng;
  readonly world: TargetWorld;
  readonly log: EventLog;
  readonly capabilities: Capabilities;
  readonly assertions: Assertion[] = [];
  readonly kills: Kill[] = [];
  readonly tally = { replays: 0, refusals: 0, disclosures: 0, bytesScanned: 0, canaryHits: 0, restarts: 0 };
  /** Report sections this trial contributes (`sections[name][scenarioId]`); values must be JSON and deterministic per seed. */
  readonly sections: Record<string, unknown> = {};
  plannedKills = 0;
  effectsBefore: EffectRow[] | null = null;
  effectsAfter: EffectRow[] | null = null;
  inconclusiveReason: string | null = null;
  readonly #launch: Launch;
  readonly #timeoutMs: number;
  readonly #drivers = new Set<DriverHandle>();
  readonly #awaitingRestart = new Set<string>();
  readonly #stderr: string[] = [];
  #plan: CrashPlan | null = null;
  #pointHits = 0;
  #boundaryHits = 0;
  #driverCount = 0;
  #schedule: KillSchedule | null = null;
  #clock = 0;
  readonly #syscallArmed = new Map<JournalClient, { log: string; label: string }>();
  /** Called before every operation a driver is sent (generated trials attach a syscall killer right before one). */
  beforeOp: ((client: JournalClient, op: OperationName) => Promise<void>) | null = null;
  /** Announced crash points the drivers stopped at (armed ones; a journal that announces points but never stops is caught by it). */
  pointsSeen = 0;
  /** When enabled, every operation, kill, restart and world event in order: what generated trials check against the model. */
  history: HistoryEvent[] | null = null;

  constructor(setup: TrialSetup) {
    this.id = setup.id;
    this.seed = setup.seed;
    this.dir = setup.dir;
    this.rng = createRng(setup.seed);
    this.world = new TargetWorld(setup.dir);
    this.log = new EventLog(join(setup.dir, 'engine-events.jsonl'));
    this.capabilities = setup.capabilities;
    this.#launch = setup.launch;
    this.#timeoutMs = setup.timeoutMs;
  }

  /** Starts a fresh driver on the trial directory and opens the journal there; after a kill it counts as a restart. */
  async driver(label = 'primary', options: { journalDir?: string; launch?: Launch; env?: Record<string, string> } = {}): Promise<JournalClient> {
    this.#driverCount += 1;
    const journalDir = options.journalDir ?? join(this.dir, 'journal');
    // One restart per kill: the first driver started on the directory a killed driver left behind.
    const restart = this.#awaitingRestart.delete(journalDir);
    if (restart) {
      this.tally.restarts += 1;
      this.world.nextGeneration();
    }
    const handle = await startDriver(options.launch ?? this.#launch, {
      label: `${label}#${this.#driverCount}`,
      // The invoking directory, so `--cmd "python3 journal.py"` means what it says; the journal gets its directory in `open`.
      cwd: process.cwd(),
      timeoutMs: this.#timeoutMs,
      stderrFile: join(this.dir, `driver-${this.#driverCount}.stderr.log`),
      ...(options.env ? { env: options.env } : {}),
    });
    this.#drivers.add(handle);
    const client = new JournalClient(handle, this, journalDir);
    this.record({ kind: 'driver', driver: handle.label, journal: journalDir, restart, clock: options.env?.['FAKETIME'] ?? null });
    // Every announced point is armed, so a plan made mid-phase can still stop there.
    mkdirSync(journalDir, { recursive: true });
    await client.op('open', { dir: journalDir, armedCrashPoints: handle.hello.capabilities.crashPoints });
    return client;
  }

  /** Arms one crash for the next phase; the trial is inconclusive unless it actually happens. */
  planCrash(plan: CrashPlan): void {
    this.plannedKills += 1;
    this.#plan = plan;
    this.#pointHits = 0;
    this.#boundaryHits = 0;
  }

  /** Runs a phase that must end in the planned crash; a phase that returns normally leaves the trial inconclusive. */
  async untilCrash(phase: () => Promise<unknown>): Promise<void> {
    const plan = this.#plan;
    if (!plan) throw new Error('untilCrash without a planned crash');
    try {
      await phase();
    } catch (err) {
      if (err instanceof CrashInjected) return;
      throw err;
    } finally {
      this.#plan = null;
    }
    this.inconclusiveReason ??= `planned crash ${describePlan(plan)} was never reached`;
  }

  /** Called by the engine at each protocol boundary; kills the driver there when the plan (or the kill schedule) says so. */
  async boundary(name: string, client: JournalClient): Promise<void> {
    const plan = this.#plan;
    if (!plan && this.#schedule?.opportunity(`boundary:${name}`, client)) {
      await this.kill(client, `boundary:${name}`);
      throw new CrashInjected(`boundary:${name}`);
    }
    if (!plan || plan.kind !== 'boundary' || plan.boundary !== name) return;
    if (plan.driver !== undefined && !client.label.startsWith(plan.driver)) return;
    this.#boundaryHits += 1;
    if (this.#boundaryHits !== (plan.occurrence ?? 1)) return;
    await this.kill(client, `boundary:${name}`);
    throw new CrashInjected(`boundary:${name}`);
  }

  /** Called when a driver announces a crash point; true when the plan says to kill here. */
  shouldKillAtPoint(point: string, client: JournalClient): boolean {
    const plan = this.#plan;
    if (!plan) return this.#schedule?.opportunity(`point:${point}`, client) ?? false;
    if (plan.kind !== 'point' || plan.point !== point) return false;
    if (plan.driver !== undefined && !client.label.startsWith(plan.driver)) return false;
    this.#pointHits += 1;
    return this.#pointHits === (plan.occurrence ?? 1);
  }

  /** SIGKILLs a driver's process group and records the kill with the signal actually observed. */
  async kill(client: JournalClient, point: string): Promise<void> {
    if (this.#schedule !== null && this.#plan === null) this.plannedKills += 1;
    const seq = client.handle.seq;
    const exit = await client.handle.kill();
    this.recordKill(client, { planned: point, point, seq, signal: exit.signal, driver: client.label });
  }

  /** Records a kill that already happened (e.g. delivered by strace at a syscall) as evidence. */
  recordKill(client: JournalClient, kill: Kill): void {
    this.#drivers.delete(client.handle);
    this.#syscallArmed.delete(client);
    this.#awaitingRestart.add(client.journalDir);
    this.kills.push(kill);
    this.record({ kind: 'kill', driver: client.label, at: kill.point, signal: kill.signal });
  }

  /** Installs a generated crash schedule: consulted at every boundary and announced point while no single crash is planned. */
  setKillSchedule(schedule: KillSchedule | null): void {
    this.#schedule = schedule;
  }

  /** Turns history recording on (for generated trials); the world's dispatches and lookups are recorded too. */
  enableHistory(): void {
    this.history ??= [];
    this.world.onEvent = (e) => this.record(e);
  }

  /** Appends to the history when it is enabled. */
  record(event: HistoryEvent): void {
    this.history?.push(event);
  }

  /** A logical clock for operation intervals: overlapping intervals are concurrent operations. */
  tick(): number {
    this.#clock += 1;
    return this.#clock;
  }

  /** Records one finished (or killed) operation of a driver. */
  noteOp(client: JournalClient, op: OperationName, params: unknown, sent: number, answer: OpAnswer): void {
    if (this.history === null) return;
    this.record({ kind: 'op', driver: client.label, sent, answered: this.tick(), op, params, answer });
  }

  /**
   * When a driver started under strace to die at a syscall has died, records that kill and answers where it happened;
   * null for any other failure (which then stays what it was).
   */
  async syscallKill(client: JournalClient, error: unknown): Promise<string | null> {
    const armed = this.#syscallArmed.get(client);
    if (!armed || !(error instanceof EjcError) || error.code !== 'driver_exited') return null;
    const exit = await client.handle.kill();
    // A wrapper (a shell, a version shim) may outlive the tracee and exit 137: strace's log is the evidence.
    const signal = exit.signal === 'SIGKILL' || traceeKilled(armed.log) ? 'SIGKILL' : exit.signal;
    if (signal !== 'SIGKILL') return null;
    const at = `syscall:${armed.label}`;
    this.plannedKills += 1;
    this.recordKill(client, { planned: at, point: at, seq: client.handle.seq, signal, driver: client.label });
    return at;
  }

  /** A driver closed gracefully: no longer live. */
  released(client: JournalClient): void {
    this.#stderr.push(...client.handle.stderrTail(20));
    this.#drivers.delete(client.handle);
    this.#syscallArmed.delete(client);
  }

  /** A driver that an attached strace may SIGKILL at a syscall from now on: its death inside an operation is that kill. */
  armSyscallKill(client: JournalClient, kill: { log: string; label: string } | null): void {
    if (kill === null) this.#syscallArmed.delete(client);
    else this.#syscallArmed.set(client, kill);
  }

  /** Drivers still running (a byte scan of a journal another process holds open proves less). */
  get liveDrivers(): number {
    return this.#drivers.size;
  }

  /** Records an assertion by deep equality. */
  expect(name: string, expected: unknown, actual: unknown): boolean {
    return this.check(name, expected, actual, isDeepStrictEqual(expected, actual));
  }

  /** Records an assertion whose pass/fail the caller decided (for bounds like writes ≤ 1). */
  check(name: string, expected: unknown, actual: unknown, passed: boolean): boolean {
    this.assertions.push({ name, expected: jsonSafe(expected), actual: jsonSafe(actual), passed });
    return passed;
  }

  /** The per-operation timeout of this trial's drivers. */
  get timeoutMs(): number {
    return this.#timeoutMs;
  }

  /** How the implementation under test is started (absolute paths). */
  get launch(): Launch {
    return this.#launch;
  }

  /** The hello of the implementation under test. */
  get hello(): HelloResult | null {
    const first = [...this.#drivers][0];
    return first ? first.hello : null;
  }

  /** Closes every live driver (gracefully when possible) and collects their stderr tails. */
  async closeAll(): Promise<void> {
    for (const handle of this.#drivers) {
      this.#stderr.push(...handle.stderrTail(20));
      await handle.close();
    }
    this.#drivers.clear();
  }

  /** Kills every live driver: the path for failures and timeouts. */
  async killAll(): Promise<void> {
    for (const handle of this.#drivers) {
      this.#stderr.push(...handle.stderrTail(20));
      await handle.kill();
    }
    this.#drivers.clear();
  }

  /** Stderr lines captured from drivers so far. */
  stderrTail(): string[] {
    return this.#stderr.slice(-40);
  }
}

function jsonSafe(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value)) as unknown;
}
