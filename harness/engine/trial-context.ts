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
  readonly #ahead = new Map<number, { readonly key: string; readonly handle: Promise<DriverHandle> }>();

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
  async driver(label = 'primary', options: { journalDir?: string; launch?: Launch } = {}): Promise<JournalClient> {
    this.#driverCount += 1;
    const journalDir = options.journalDir ?? join(this.dir, 'journal');
    // One restart per kill: the first driver started on the directory a killed driver left behind.
    if (this.#awaitingRestart.delete(journalDir)) {
      this.tally.restarts += 1;
      this.world.nextGeneration();
    }
    const handle = await this.#startOrTakeAhead(label, this.#driverCount, options.launch ?? this.#launch);
    this.#drivers.add(handle);
    const client = new JournalClient(handle, this, journalDir);
    // Every announced point is armed, so a plan made mid-phase can still stop there.
    mkdirSync(journalDir, { recursive: true });
    await client.op('open', { dir: journalDir, armedCrashPoints: handle.hello.capabilities.crashPoints });
    return client;
  }

  /**
   * Starts a later driver of the trial ahead (spawned and past `hello`) while the current phase runs: the next
   * driver(label, { launch }) call, or with `skip` the one after that many more calls. It is a fresh process that has
   * opened nothing, never one that served before a kill; a call that asks for another label or launch discards it.
   */
  startAhead(label = 'primary', options: { launch?: Launch; skip?: number } = {}): void {
    const number = this.#driverCount + 1 + (options.skip ?? 0);
    if (this.#ahead.has(number)) return;
    const launch = options.launch ?? this.#launch;
    const handle = startDriver(launch, this.#startOptions(label, number));
    handle.catch(() => undefined);
    this.#ahead.set(number, { key: aheadKey(label, number, launch), handle });
  }

  async #startOrTakeAhead(label: string, number: number, launch: Launch): Promise<DriverHandle> {
    // Started for this call or an earlier one: taken when it is the driver asked for, else discarded; later ones wait.
    let taken: Promise<DriverHandle> | null = null;
    for (const [n, ahead] of this.#ahead) {
      if (n > number) continue;
      this.#ahead.delete(n);
      if (n === number && ahead.key === aheadKey(label, number, launch)) taken = ahead.handle;
      else await discard(ahead.handle);
    }
    return taken ?? startDriver(launch, this.#startOptions(label, number));
  }

  #startOptions(label: string, number: number): Parameters<typeof startDriver>[1] {
    return {
      label: `${label}#${number}`,
      // The invoking directory, so `--cmd "python3 journal.py"` means what it says; the journal gets its directory in `open`.
      cwd: process.cwd(),
      timeoutMs: this.#timeoutMs,
      stderrFile: join(this.dir, `driver-${number}.stderr.log`),
    };
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
    if (!plan || plan.kind !== 'point' || plan.point !== point) return false;
    if (plan.driver !== undefined && !client.label.startsWith(plan.driver)) return false;
    this.#pointHits += 1;
    return this.#pointHits === (plan.occurrence ?? 1);
  }

  /** SIGKILLs a driver's process group and records the kill with the signal actually observed. */
  async kill(client: JournalClient, point: string): Promise<void> {
    const seq = client.handle.seq;
    const exit = await client.handle.kill();
    this.recordKill(client, { planned: point, point, seq, signal: exit.signal, driver: client.label });
  }

  /** Records a kill that already happened (e.g. delivered by strace at a syscall) as evidence. */
  recordKill(client: JournalClient, kill: Kill): void {
    this.#drivers.delete(client.handle);
    this.#awaitingRestart.add(client.journalDir);
    this.kills.push(kill);
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
    await this.#dropAhead();
    for (const handle of this.#drivers) {
      this.#stderr.push(...handle.stderrTail(20));
      await handle.close();
    }
    this.#drivers.clear();
  }

  /** Kills every live driver: the path for failures and timeouts. */
  async killAll(): Promise<void> {
    await this.#dropAhead();
    for (const handle of this.#drivers) {
      this.#stderr.push(...handle.stderrTail(20));
      await handle.kill();
    }
    this.#drivers.clear();
  }

  async #dropAhead(): Promise<void> {
    const unused = [...this.#ahead.values()];
    this.#ahead.clear();
    for (const ahead of unused) await discard(ahead.handle);
  }

  /** Stderr lines captured from drivers so far. */
  stderrTail(): string[] {
    return this.#stderr.slice(-40);
  }
}

function aheadKey(label: string, number: number, launch: Launch): string {
  return JSON.stringify([label, number, launch]);
}

// An unused driver started ahead: it never opened a journal, so it is simply killed (not a kill of the trial).
async function discard(handle: Promise<DriverHandle>): Promise<void> {
  const started = await handle.catch(() => null);
  await started?.kill();
}

function jsonSafe(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value)) as unknown;
}
