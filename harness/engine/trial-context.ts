// One trial's evidence: drivers it started, kills it made, assertions it checked, and the counts it saw.
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { mkdirSync, realpathSync } from 'node:fs';
import type { DriverHandle, ExitInfo, TreeEvidence } from '../driver/types.js';
import { startDriver } from '../driver/start-driver.js';
import type { Capabilities, EffectRow, HelloResult } from '../../shared/protocol/schemas.js';
import type { Assertion, Kill, Launch, VariableCountKey } from '../../reports/schema.js';
import { createRng, type Rng } from '../rng.js';
import { TargetWorld } from '../world/targets.js';
import { EventLog } from './event-log.js';
import { JournalClient } from './journal-client.js';
import { TrialRecord } from '../transcript/trial-record.js';
import { CrashInjected, describePlan, operationOfPoint, type CrashPlan } from './crash-plan.js';
import { EchoWatch, type EchoFinding } from '../secrets/echo-watch.js';
import { implSecretsEnv } from '../secrets/impl-secrets.js';
import { driverEnvFor } from '../reference-env.js';
import { canaryLabel, registerSecret } from '../../shared/secrets/mask.js';
import type { HistoryEvent, OpAnswer } from '../model/history.js';
import type { OperationName } from '../../shared/protocol/schemas.js';
import { EjcError } from '../../shared/errors.js';
import { traceeKilled } from './syscall-sweep.js';
import { trialNonce } from '../../shared/secrets/canary-nonce.js';
import { startWorldWatch } from '../world/world-watch.js';
import { watchMounts } from '../world/world-scan.js';
import { releaseFaketimePair } from '../clock/faketime-shared.js';

/** The environment the next driver a trial starts will have, or null when it will start none (see keepSpare). */
export type SparePolicy = () => { readonly env: Record<string, string> | undefined } | null;

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
  /** Declared-secret adapter options (`--impl-secret`): they reach each driver in its environment, never in its argv. */
  readonly implSecrets?: Readonly<Record<string, string>>;
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
  /** The wire and what happened around it: the kept transcript and the report's timeline. */
  readonly record = new TrialRecord();
  /** Counts the contract lets vary between runs of this trial (see `varies`). */
  readonly variableCounts = new Set<VariableCountKey>();
  plannedKills = 0;
  effectsBefore: EffectRow[] | null = null;
  effectsAfter: EffectRow[] | null = null;
  inconclusiveReason: string | null = null;
  readonly #launch: Launch;
  readonly #timeoutMs: number;
  readonly #drivers = new Set<DriverHandle>();
  readonly #awaitingRestart = new Set<string>();
  readonly #stderr: string[] = [];
  readonly #echo = new EchoWatch();
  readonly #journalDirs = new Set<string>();
  readonly #planted: string[] = [];
  readonly #harnessFiles = new Set<string>();
  /** Mixed into every canary of this trial: no other trial, run or harness process plants the same bytes. */
  readonly canaryNonce = trialNonce();
  /**
   * When the trial began (wall clock, ms): the world scan reads only files modified since. The world watch starts first,
   * so that it sees the whole trial (the scan learns what changed from it only then).
   */
  readonly startedAt = startWorldWatch(watchMounts);
  readonly #driverEnv: Readonly<Record<string, string | undefined>>;
  #plan: CrashPlan | null = null;
  #pointHits = 0;
  #boundaryHits = 0;
  #driverCount = 0;
  readonly #ahead = new Map<number, { readonly key: string; readonly handle: Promise<DriverHandle> }>();
  /** The driver kept started ahead for whichever call comes next (keepSpare), with the name it has until one takes it. */
  #spare: { readonly key: string; readonly handle: Promise<DriverHandle>; readonly name: { current: string } } | null = null;
  #spareEnv: SparePolicy | null = null;
  #spareCount = 0;
  /** Spares being discarded; the trial's end waits for them. */
  readonly #dropping: Array<Promise<void>> = [];
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
    this.world = new TargetWorld(setup.dir, (entry) => this.record.target(entry));
    this.log = new EventLog(join(setup.dir, 'engine-events.jsonl'));
    this.capabilities = setup.capabilities;
    this.#launch = setup.launch;
    this.#timeoutMs = setup.timeoutMs;
    // The reference journal's drivers leave out what only slows their start (see reference-env.ts).
    this.#driverEnv = { ...driverEnvFor(setup.launch), ...implSecretsEnv(setup.implSecrets) };
  }

  /**
   * Plants a secret in this trial: masked in everything the harness writes, and a failure of the
   * secrets clause if any driver repeats it on stdout or stderr. Use it for every canary a scenario
   * or a generator creates (not for values a journal may legitimately return, such as a run result).
   */
  secret(value: string): string {
    this.#planted.push(value);
    registerSecret(value, canaryLabel(value));
    this.#echo.plant(value);
    return value;
  }

  /** Where drivers of this trial repeated a planted secret, and how many were planted. */
  secretEchoes(): { planted: number; findings: EchoFinding[] } {
    return { planted: this.#echo.planted, findings: this.#echo.findings() };
  }

  /** The secrets planted in this trial (argument canaries), in order: what the world scan looks for. */
  get planted(): readonly string[] {
    return this.#planted;
  }

  /** Names a file the harness itself writes in this trial (a trace log, a ledger): by exact path, the world scan skips it. */
  harnessFile(path: string): string {
    this.#harnessFiles.add(path);
    return path;
  }

  /** Every file the harness wrote in this trial: the engine's event log, the target ledgers, driver stderr logs, registered traces. */
  get harnessFiles(): string[] {
    const stderr = Array.from({ length: this.#driverCount + this.#ahead.size + 1 }, (_, i) => join(this.dir, `driver-${i + 1}.stderr.log`));
    return [this.log.path, ...this.world.ledgerFiles(), ...stderr, ...this.#harnessFiles];
  }

  /** Every journal directory a driver of this trial opened: the journal's own files, not the harness's. */
  get journalDirs(): string[] {
    return [...this.#journalDirs];
  }

  /** Starts a fresh driver on the trial directory and opens the journal there; after a kill it counts as a restart. */
  async driver(label = 'primary', options: { journalDir?: string; launch?: Launch; env?: Record<string, string>; armed?: readonly string[]; open?: false } = {}): Promise<JournalClient> {
    this.#driverCount += 1;
    const journalDir = options.journalDir ?? join(this.dir, 'journal');
    const name = `${label}#${this.#driverCount}`;
    // One restart per kill: the first driver started on the directory a killed driver left behind.
    const restart = this.#awaitingRestart.delete(journalDir);
    if (restart) {
      this.tally.restarts += 1;
      this.world.nextGeneration();
      this.record.restart(name, journalDir);
    }
    // Made before the driver starts, and only then listed as made: a driver that fails to start must not leave a listed
    // directory missing, which would read as the harness's files removed under it (a harness fault hiding the failure).
    mkdirSync(journalDir, { recursive: true });
    this.#journalDirs.add(journalDir);
    const handle = await this.#startOrTakeAhead(label, this.#driverCount, options.launch ?? this.#launch, options.env);
    this.#drivers.add(handle);
    const client = new JournalClient(handle, this, journalDir);
    this.note({ kind: 'driver', driver: handle.label, journal: journalDir, restart, clock: options.env?.['FAKETIME'] ?? null });
    // Every announced point is armed, so a plan made mid-phase can still stop there; a scenario that never kills at a
    // point may arm fewer (`armed`): an unarmed point costs the journal nothing, a held one a round trip.
    const armed = options.armed === undefined ? handle.hello.capabilities.crashPoints : handle.hello.capabilities.crashPoints.filter((p) => options.armed!.includes(p));
    // `open: false` leaves the open to the scenario, for one that kills inside it (sweep.open.every-write).
    if (options.open === false) return client;
    client.openedFiles = (await client.op('open', { dir: journalDir, armedCrashPoints: armed })).files;
    return client;
  }

  /**
   * Starts a later driver of the trial ahead (spawned and past `hello`) while the current phase runs: the next
   * driver(label, { launch }) call, or with `skip` the one after that many more calls. It is a fresh process that has
   * opened nothing, never one that served before a kill; a call that asks for another label, launch or environment
   * discards it.
   */
  startAhead(label = 'primary', options: { launch?: Launch; skip?: number; env?: Record<string, string> } = {}): void {
    const number = this.#driverCount + 1 + (options.skip ?? 0);
    if (this.#ahead.has(number)) return;
    const launch = options.launch ?? this.#launch;
    const handle = this.#spawn(label, number, launch, options.env);
    handle.catch(() => undefined);
    this.#ahead.set(number, { key: aheadKey(label, number, launch, options.env), handle });
  }

  async #startOrTakeAhead(label: string, number: number, launch: Launch, env: Record<string, string> | undefined): Promise<DriverHandle> {
    // Started for this call or an earlier one: taken when it is the driver asked for, else discarded; later ones wait.
    let taken: Promise<DriverHandle> | null = null;
    for (const [n, ahead] of this.#ahead) {
      if (n > number) continue;
      this.#ahead.delete(n);
      if (n === number && ahead.key === aheadKey(label, number, launch, env)) taken = ahead.handle;
      else await discard(ahead.handle);
    }
    // Without a spare to wait for, the spawn starts in this tick (crashDuring relies on the order of spawns).
    const spare = taken === null && this.#spare !== null ? await this.#takeSpare(`${label}#${number}`, number, launch, env) : null;
    const handle = taken ?? (spare !== null ? Promise.resolve(spare) : this.#spawn(label, number, launch, env));
    this.#refillSpare();
    return handle;
  }

  /**
   * Keeps one driver started ahead (spawned, past hello, nothing opened) for whichever driver the trial asks for next,
   * started on the environment `next` gives, or none while it answers null (asked again after every driver taken and at
   * `refreshSpare`): it takes the name of the call that uses it. Generated trials start a driver after nearly every kill
   * and activity, and where the next one's label cannot be known in advance a numbered `startAhead` would be discarded.
   * `null` ends the policy.
   */
  keepSpare(next: SparePolicy | null): void {
    this.#spareEnv = next;
    if (next === null) this.#dropSpare();
    else this.refreshSpare();
  }

  /** Asks the policy again (a kill armed since moves the next driver's clock): a spare on another environment is replaced. */
  refreshSpare(): void {
    if (this.#spare !== null && this.#spareEnv !== null) {
      const wanted = this.#spareEnv();
      if (wanted === null) {
        this.#dropSpare();
        return;
      }
      const { env } = wanted;
      if (envKey(this.#launch, env) === this.#spare.key) {
        releaseFaketimePair(env?.['FAKETIME_SHARED']);
        return;
      }
      this.#dropSpare();
      this.#startSpare(env);
      return;
    }
    this.#refillSpare();
  }

  #refillSpare(): void {
    if (this.#spareEnv === null || this.#spare !== null) return;
    const wanted = this.#spareEnv();
    if (wanted !== null) this.#startSpare(wanted.env);
  }

  #startSpare(env: Record<string, string> | undefined): void {
    const k = ++this.#spareCount;
    const name = { current: `spare-${k}` };
    const stderrFile = this.harnessFile(join(this.dir, `driver-spare-${k}.stderr.log`));
    const handle = this.#spawnAs(name, stderrFile, this.#launch, env);
    handle.catch(() => undefined);
    this.#spare = { key: envKey(this.#launch, env), handle, name };
  }

  // The spare when it suits the call (same launch, same environment but for the clock's own shared-memory pair), renamed
  // for it; null when there is none, it does not suit (kept for a later call), or it failed to start (the call's own
  // start then says why, under the call's name).
  async #takeSpare(name: string, number: number, launch: Launch, env: Record<string, string> | undefined): Promise<DriverHandle | null> {
    const spare = this.#spare;
    if (spare === null || spare.key !== envKey(launch, env)) return null;
    this.#spare = null;
    const handle = await spare.handle.catch(() => null);
    if (handle === null) return null;
    // The call's own clock pair goes unused: the spare runs on the one it was started with.
    releaseFaketimePair(env?.['FAKETIME_SHARED']);
    this.record.rename(spare.name.current, name);
    spare.name.current = name;
    handle.rename(name, join(this.dir, `driver-${number}.stderr.log`));
    return handle;
  }

  #dropSpare(): void {
    const spare = this.#spare;
    if (spare === null) return;
    this.#spare = null;
    this.#dropping.push(discard(spare.handle));
  }

  // `name` is read as the driver is named when something happens: a spare is renamed when a call takes it.
  #startOptions(name: { readonly current: string }, stderrFile: string, extraEnv: Record<string, string> | undefined): Parameters<typeof startDriver>[1] {
    // Generated trials add their own variables (a moved clock, a tracer) to the declared-secret ones.
    return {
      label: name.current,
      onOutput: this.#echo.tap(() => name.current),
      env: { ...this.#driverEnv, ...extraEnv },
      // The invoking directory, so `--cmd "python3 journal.py"` means what it says; the journal gets its directory in `open`.
      cwd: process.cwd(),
      timeoutMs: this.#timeoutMs,
      stderrFile,
      onWire: (line) => this.record.wire(name.current, line),
    };
  }

  #spawn(label: string, number: number, launch: Launch, env?: Record<string, string>): Promise<DriverHandle> {
    return this.#spawnAs({ current: `${label}#${number}` }, join(this.dir, `driver-${number}.stderr.log`), launch, env);
  }

  // Every driver, started now or ahead, enters the trial's record from its spawn to its exit.
  #spawnAs(name: { readonly current: string }, stderrFile: string, launch: Launch, env?: Record<string, string>): Promise<DriverHandle> {
    const started = this.record.start(name.current);
    const handle = startDriver(launch, this.#startOptions(name, stderrFile, env));
    handle.then(
      (h) => {
        started.setPid(h.pid);
        void h.exited.then((info) => this.record.exit(name.current, info));
      },
      () => this.record.exit(name.current, { signal: null, exitCode: null, killedByHarness: true }),
    );
    return handle;
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
    // The crash makes a restart: its driver starts while the phase runs.
    this.startAhead();
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

  /** Called by the engine at each protocol boundary; kills the driver there when the plan says so. */
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

  /**
   * True when a driver announces the planned crash point inside an operation the point does not
   * belong to (`prepare.before-commit` during settle): recorded once as a conclusive failure, since
   * a kill there would not be the crash the scenario plans.
   */
  pointInWrongOperation(point: string, op: string, client: JournalClient): boolean {
    const plan = this.#plan;
    if (!plan || plan.kind !== 'point' || plan.point !== point) return false;
    if (plan.driver !== undefined && !client.label.startsWith(plan.driver)) return false;
    const owner = operationOfPoint(point);
    if (owner === null || owner === op) return false;
    const name = `crash point ${point} is announced inside ${owner}, where the contract places it`;
    if (!this.assertions.some((a) => a.name === name)) this.assertions.push({ name, expected: `announced during ${owner}`, actual: `announced during ${op}`, passed: false, conclusive: true });
    return true;
  }

  /** Records a failure that stands on its own (see Assertion.conclusive): the journal's answer broke `clause`. */
  failConclusively(name: string, expected: unknown, actual: unknown): void {
    this.assertions.push({ name, expected: jsonSafe(expected), actual: jsonSafe(actual), passed: false, conclusive: true });
  }

  /** SIGKILLs a driver's whole process tree and records the kill with the signal observed and the proof of the tree. */
  async kill(client: JournalClient, point: string): Promise<void> {
    if (this.#schedule !== null && this.#plan === null) this.plannedKills += 1;
    const seq = client.handle.seq;
    const at = this.record.now();
    const exit = await client.handle.kill();
    this.recordKill(client, { planned: point, point, seq, signal: exit.signal, driver: client.label }, exit, at);
  }

  /**
   * Records a kill that already happened (e.g. delivered by strace at a syscall) as evidence, with the proof of
   * its process tree from `exit`: a process that survived it or still holds the journal's files makes the trial
   * inconclusive. `at` is when the kill was sent (for the timeline).
   */
  recordKill(client: JournalClient, kill: Kill, exit?: ExitInfo, at?: number): void {
    this.#drivers.delete(client.handle);
    this.#syscallArmed.delete(client);
    this.#awaitingRestart.add(client.journalDir);
    this.note({ kind: 'kill', driver: client.label, at: kill.point, signal: kill.signal });
    if (exit === undefined) {
      this.kills.push(kill);
      this.record.kill(kill, at);
      return;
    }
    const tree = this.#normalised(exit.tree);
    const recorded = { ...kill, tree };
    this.kills.push(recorded);
    this.record.kill(recorded, at);
    this.#survivorsMakeInconclusive(`the kill of ${client.label} at ${kill.point}`, tree);
  }

  /** Installs a generated crash schedule: consulted at every boundary and announced point while no single crash is planned. */
  setKillSchedule(schedule: KillSchedule | null): void {
    this.#schedule = schedule;
  }

  /** Turns history recording on (for generated trials); the world's dispatches and lookups are recorded too. */
  enableHistory(): void {
    this.history ??= [];
    this.world.onEvent = (e) => this.note(e);
  }

  /** Appends to the history when it is enabled. */
  note(event: HistoryEvent): void {
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
    this.note({ kind: 'op', driver: client.label, sent, answered: this.tick(), op, params, answer });
  }

  /**
   * When a driver started under strace to die at a syscall has died, records that kill and answers where it happened;
   * null for any other failure (which then stays what it was).
   */
  async syscallKill(client: JournalClient, error: unknown): Promise<string | null> {
    const armed = this.#syscallArmed.get(client);
    if (!armed || !(error instanceof EjcError) || error.code !== 'driver_exited') return null;
    const at = this.record.now();
    const exit = await client.handle.kill();
    // A wrapper (a shell, a version shim) may outlive the tracee and exit 137: strace's log is the evidence.
    const signal = exit.signal === 'SIGKILL' || traceeKilled(armed.log) ? 'SIGKILL' : exit.signal;
    if (signal !== 'SIGKILL') return null;
    const point = `syscall:${armed.label}`;
    this.plannedKills += 1;
    this.recordKill(client, { planned: point, point, seq: client.handle.seq, signal, driver: client.label }, exit, at);
    return point;
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

  /** The per-operation timeout of this trial's drivers. */
  get timeoutMs(): number {
    return this.#timeoutMs;
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

  /**
   * Records an observation the contract lets vary (which of two racing resumes disclosed, a kill
   * between notice and sweep): when allowed, `actual` is the allowance itself and the raw value goes
   * to `observed`, so the outcome digest depends on conformance, not on the machine's load.
   */
  allow(name: string, allowance: string, observed: unknown, allowed: boolean): boolean {
    const value = jsonSafe(observed);
    this.assertions.push({ name, expected: allowance, actual: allowed ? allowance : value, observed: value, passed: allowed });
    return allowed;
  }

  /** Marks counts whose value the contract lets vary in this trial; they stay in the report, out of the outcome digest. */
  varies(...keys: VariableCountKey[]): void {
    for (const k of keys) this.variableCounts.add(k);
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

  /** Closes every live driver (gracefully when possible), collects their stderr tails, and checks each tree ended. */
  async closeAll(): Promise<void> {
    await this.#dropAhead();
    await this.#endAll((handle) => handle.close());
  }

  /** Kills every live driver: the path for failures and timeouts. */
  async killAll(): Promise<void> {
    await this.#dropAhead();
    await this.#endAll((handle) => handle.kill());
  }

  async #endAll(end: (handle: DriverHandle) => Promise<ExitInfo>): Promise<void> {
    for (const handle of this.#drivers) {
      this.#stderr.push(...handle.stderrTail(20));
      const exit = await end(handle);
      this.#survivorsMakeInconclusive(`after ${handle.label} ended`, this.#normalised(exit.tree));
    }
    this.#drivers.clear();
  }

  #survivorsMakeInconclusive(when: string, tree: TreeEvidence): void {
    if (tree.survivors.length === 0) return;
    const each = tree.survivors.map((p) => `\`${p.cmdline || '(no command line)'}\`${p.holds.length > 0 ? ` holding ${p.holds.join(', ')}` : ''}`);
    this.inconclusiveReason ??=
      `${when}, ${tree.survivors.length} process(es) outside the harness's kill still ran or held the journal's files: ${each.join('; ')}`;
  }

  // Paths and command lines name the trial directory, which differs per run; the outcome must not.
  #normalised(tree: TreeEvidence): TreeEvidence {
    const dirs = [...new Set([realDir(this.dir), this.dir])];
    const clean = (text: string): string => dirs.reduce((acc, d) => acc.split(d).join('<trial>'), text);
    const each = (list: TreeEvidence['escaped']): TreeEvidence['escaped'] =>
      list.map((p) => ({ ...p, cmdline: clean(p.cmdline), holds: p.holds.map(clean) }));
    return { processes: tree.processes, escaped: each(tree.escaped), survivors: each(tree.survivors) };
  }

  async #dropAhead(): Promise<void> {
    const unused = [...this.#ahead.values()];
    this.#ahead.clear();
    for (const ahead of unused) await discard(ahead.handle);
    this.#spareEnv = null;
    this.#dropSpare();
    const dropping = this.#dropping.splice(0);
    await Promise.all(dropping);
  }

  /** Stderr lines captured from drivers so far. */
  stderrTail(): string[] {
    return this.#stderr.slice(-40);
  }
}

function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

function aheadKey(label: string, number: number, launch: Launch, env: Record<string, string> | undefined): string {
  return JSON.stringify([label, number, launch, env ?? null]);
}

// Drivers on one clock are alike whatever shared-memory pair each of them keeps its faked clock in.
function envKey(launch: Launch, env: Record<string, string> | undefined): string {
  const { FAKETIME_SHARED: _pair, ...rest } = env ?? {};
  return JSON.stringify([launch, rest]);
}

// An unused driver started ahead: it never opened a journal, so it is simply killed (not a kill of the trial).
async function discard(handle: Promise<DriverHandle>): Promise<void> {
  const started = await handle.catch(() => null);
  await started?.kill();
}

function jsonSafe(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value)) as unknown;
}
