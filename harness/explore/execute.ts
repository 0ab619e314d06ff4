// Executes one generated trial with real drivers, real SIGKILLs and real files; the history it records is what the model checks.
import { join } from 'node:path';
import { CrashInjected } from '../engine/crash-plan.js';
import { JournalOpError, type JournalClient } from '../engine/journal-client.js';
import type { RunScript } from '../engine/model.js';
import { gateEveryNode, resumeRun } from '../engine/run-engine.js';
import { resumeSession, type OpenTurn } from '../engine/session-engine.js';
import type { TrialContext } from '../engine/trial-context.js';
import { attachSyscallKiller, type AttachedKiller } from './strace-attach.js';
import { kxmRecover, type KxmPlan } from '../kxm/explore-activity.js';
import { runActivity } from './activities.js';
import { buildRun, type BuiltRun } from './build.js';
import { CanaryBook } from './canaries.js';
import type { Activity, Features, Step, TrialCase } from './case.js';
import { ScanMemo, scanJournalDir } from './scan.js';
import { GrowingHistoryCheck } from '../model/check-history.js';
import { CrashSchedule, TrialClock } from './schedule.js';

/** A session's engine-side memory: turn numbers handed out and what each turn prepared. */
export interface SessionMemory {
  readonly id: string;
  nextTurn: number;
  readonly turns: Array<{ turn: number; prepares: Array<Parameters<JournalClient['op']>[1]>; callIds: string[] }>;
}

/** Everything one trial's engine knows while it runs. */
export class Exec {
  primary!: JournalClient;
  readonly book: CanaryBook;
  readonly schedule: CrashSchedule;
  readonly clock = new TrialClock();
  readonly runs: RunScript[];
  readonly #built: BuiltRun[];
  /** Re-runs after a crash so far, per run: the next one asks the next variation. */
  readonly #resumes = new Map<number, number>();
  readonly sessions: SessionMemory[];
  readonly started = new Set<number>();
  openTurns: Array<{ driver: JournalClient; turn: OpenTurn }> = [];
  laterSweeps: Array<{ driver: JournalClient; sweep: (c: JournalClient) => Promise<void> }> = [];
  /** Race identities handed out so far (per trial, so a seed always names the same ones). */
  raceCount = 0;
  /** Legacy session rows planted so far (each at a turn of its own, far from the engine's). */
  seeded = 0;
  /** KXM runs started so far, with their plans (recovery follows each one's own plan). */
  readonly kxmRuns = new Map<string, KxmPlan>();
  /** Runs whose first identity already holds a legacy row. */
  readonly seededRuns = new Set<number>();
  #straceRuns = 0;
  /** The step running now (its index in the case), -1 before the first. */
  #step = -1;
  /** Whether the running step's activity has asked for the driver of its own (see ownDriver). */
  #ownStarted = false;
  /** The byte scans' answers per file, reused while a file's bytes stay the same (see ScanMemo). */
  readonly #scans = new ScanMemo();

  constructor(
    readonly t: TrialContext,
    readonly c: TrialCase,
    readonly features: Features,
  ) {
    this.book = new CanaryBook(t);
    this.schedule = new CrashSchedule();
    t.setKillSchedule(this.schedule);
    this.#built = c.runs.map((r) => buildRun(r, this.book));
    this.runs = this.#built.map((b) => b.script);
    this.sessions = c.sessions.map((id) => ({ id, nextTurn: 0, turns: [] }));
  }

  get journalDir(): string {
    return join(this.t.dir, 'journal');
  }

  /** Starts the primary driver (under strace when the waiting kill is a syscall kill; on the moved clock after a jump). */
  async startPrimary(): Promise<void> {
    const env = this.clock.env();
    this.primary = await this.t.driver('primary', env ? { env } : {});
    this.schedule.watch(this.primary);
  }

  // Runs `fn` with a syscall killer armed: strace attaches to the primary right before the planned operation is sent.
  private async underSyscallKill(fn: () => Promise<void>): Promise<void> {
    const plan = this.schedule.armed;
    if (plan?.via !== 'syscall' || !this.features.strace) return fn();
    const primary = this.primary;
    let seen = 0;
    let killer: AttachedKiller | null = null;
    this.t.beforeOp = async (client, op) => {
      if (killer !== null || client !== primary || (plan.op !== 'any' && op !== plan.op) || ++seen < plan.occurrence) return;
      const log = this.t.harnessFile(join(this.t.dir, `strace-${++this.#straceRuns}.log`));
      killer = await attachSyscallKiller(primary.handle.pid, { syscall: plan.syscall, invocation: plan.n }, log, this.journalDir);
      this.t.armSyscallKill(primary, { log, label: `${plan.syscall}#${plan.n} of ${op}` });
      this.t.note({ kind: 'note', text: `strace attached to ${primary.label}: SIGKILL at the ${plan.n}th ${plan.syscall === 'pwrite64' ? 'data write (pwrite64 or write(2) to a journal file)' : 'sync (fsync or fdatasync)'} from this ${op} on` });
    };
    try {
      await fn();
    } finally {
      this.t.beforeOp = null;
      await (killer as AttachedKiller | null)?.detach();
      this.t.armSyscallKill(primary, null);
    }
  }

  /** Runs the whole trial: every step (its kill armed), recovery after every kill, then a drain that leaves nothing half done. */
  async run(): Promise<void> {
    // A driver is kept started ahead for the next start (the restart after a kill, a rival, a second process), on the
    // clock it will wake up to: waiting for process starts was most of a generated trial's time. None once no start is
    // left: one started for nothing costs a whole process start and its kill.
    this.t.keepSpare(() => this.nextStart());
    await this.guard(() => this.startPrimary(), null);
    for (const [i, step] of this.c.steps.entries()) {
      this.#step = i;
      this.#ownStarted = false;
      await this.step(step);
      // A trial that has already broken a clause has made its point: the rest would only cost drivers and kills.
      if (this.violated()) return;
    }
    await this.guard(() => this.drain(), null);
    if (this.violated()) return;
    await this.guard(() => this.finalObservations(), null);
  }

  // The next driver start, as far as the case tells: the armed kill's restart, the running activity's own driver (it
  // may have started it already), or the first later step's. Null when none is left to start.
  private nextStart(): { env: Record<string, string> | undefined } | null {
    const armed = this.schedule.armed;
    if (armed !== null) return { env: this.clock.envAfter(armed.jump) };
    const current = this.c.steps[this.#step];
    if (current !== undefined && !this.#ownStarted && STARTS_DRIVERS.has(current.act.kind)) return { env: this.activityEnv(current.act) };
    for (const later of this.c.steps.slice(this.#step + 1)) {
      if (STARTS_DRIVERS.has(later.act.kind)) return { env: this.activityEnv(later.act) };
      if (later.kill !== null) return { env: this.clock.envAfter(later.kill.jump) };
    }
    return null;
  }

  // A race's rival starts on the harness's clock; a second process on the trial's; a graceful restart on the trial's
  // after its own jump.
  private activityEnv(act: Activity): Record<string, string> | undefined {
    if (act.kind === 'restart') return this.clock.envAfter(act.jump);
    return act.kind.startsWith('race-') ? undefined : this.clock.env();
  }

  // Checked after every step: only the events added since the last step are walked (the trial's verdict is the whole
  // history's, checked once more at its end).
  #model: GrowingHistoryCheck | null = null;

  private violated(): boolean {
    this.#model ??= new GrowingHistoryCheck({ tierMode: this.t.capabilities.tierMode, gate: this.t.capabilities.gate });
    return this.#model.check(this.t.history ?? []).failure !== null;
  }

  private async step(step: Step): Promise<void> {
    if (step.kill !== null) this.schedule.arm(step.kill);
    // The spare suits the driver this step starts first (a restart on a jumped clock, a rival), or goes.
    this.t.refreshSpare();
    await this.guard(() => this.underSyscallKill(() => this.activity(step.act)), step.act);
    // A kill the activity never reached fires now, at a quiet moment: every acknowledged write must survive it too.
    if (this.schedule.armed !== null) {
      this.schedule.forceNext();
      await this.guard(() => this.t.boundary('after-activity', this.primary), step.act);
    }
  }

  private async activity(a: Activity): Promise<void> {
    await runActivity(this, a);
    this.scan();
    // The journal's own listing after every activity: a row swept too early (a neighbour's sweep, a housekeeping rule)
    // shows here even when nothing would read it again.
    await this.primary.op('listEffects', {});
    await this.t.boundary('after-activity', this.primary);
  }

  /** The driver an activity starts for itself (a rival, a second process): the spare kept next is for what follows it. */
  ownDriver(label: string, options: { journalDir: string; env?: Record<string, string> }): Promise<JournalClient> {
    this.#ownStarted = true;
    return this.t.driver(label, options);
  }

  /** A graceful restart of the engine process: what lived only in it (deferred settles, sweeps) is gone. */
  async restartPrimary(): Promise<void> {
    const old = this.primary;
    await old.close();
    this.forget(old);
    this.#ownStarted = true;
    await this.startPrimary();
    await this.primary.op('listEffects', {});
  }

  /** Byte scan of the journal directory as it is now. */
  scan(): void {
    scanJournalDir(this.t, this.journalDir, this.book.values, this.#scans);
  }

  private forget(driver: JournalClient): void {
    this.openTurns = this.openTurns.filter((o) => o.driver !== driver);
    this.laterSweeps = this.laterSweeps.filter((s) => s.driver !== driver);
  }

  // A planned kill unwinds to here: restart (maybe on a later clock), look at what survived, then resume what was cut off.
  private async guard(fn: () => Promise<unknown>, interrupted: Activity | null): Promise<void> {
    try {
      await fn();
    } catch (error) {
      if (error instanceof JournalOpError) {
        // The journal answered an error where the engine needed a result: the history holds it for the model.
        this.t.note({ kind: 'note', text: `the engine could not go on after ${error.op} answered ${error.code}` });
        return;
      }
      if (!(error instanceof CrashInjected)) throw error;
      await this.recover(error.where, interrupted);
    }
  }

  private async recover(at: string, interrupted: Activity | null): Promise<void> {
    for (;;) {
      const fired = this.schedule.takeFired(at);
      this.clock.jump(fired?.jump ?? null);
      // Work that lived only in the dead process is gone: its deferred settles and sweeps never happen.
      this.forget(this.primary);
      if (fired?.then) this.schedule.arm(fired.then);
      try {
        await this.startPrimary();
        await this.primary.op('listEffects', {});
        this.scan();
        await this.underSyscallKill(() => this.resumeWork(interrupted));
        // A kill planned for the recovery that the recovery never reached fires once it is done.
        if (this.schedule.armed !== null) {
          this.schedule.forceNext();
          await this.t.boundary('after-recovery', this.primary);
        }
        return;
      } catch (error) {
        if (error instanceof JournalOpError) return;
        if (!(error instanceof CrashInjected)) throw error;
        at = error.where;
      }
    }
  }

  // What an engine does on restart: resume every run its log shows unfinished, repeat terminal sweeps, resume the session it was in.
  private async resumeWork(interrupted: Activity | null): Promise<void> {
    const log = this.t.log;
    for (const [i, run] of this.runs.entries()) {
      if (!this.started.has(i)) continue;
      if (log.ended(run.runId)) await this.primary.op('runTerminal', { runId: run.runId });
      else await resumeRun(this.t, this.primary, this.nextRerun(i));
    }
    const session = interrupted && 'session' in interrupted ? this.session(interrupted.session) : null;
    if (session) await resumeSession(this.t, this.primary, session.id);
    for (const runId of this.kxmRuns.keys()) await kxmRecover(this, runId);
  }

  // Nothing left half done: open turns finish, deferred sweeps run, every session resumes once more.
  private async drain(): Promise<void> {
    await runActivity(this, { kind: 'finish-turns' });
    await runActivity(this, { kind: 'sweep-later' });
    for (const s of this.sessions) await resumeSession(this.t, this.primary, s.id);
    this.scan();
  }

  private async finalObservations(): Promise<void> {
    for (const [i, run] of this.runs.entries()) {
      if (!this.started.has(i)) continue;
      await gateEveryNode(this.primary, run);
    }
    const { effects } = await this.primary.op('listEffects', {});
    // Resolution times are the clock's, not the seed's: masked so the same seed gives the same report.
    this.t.effectsAfter = effects.map((r) => (r.resolution ? { ...r, resolution: { ...r.resolution, at: '<time>' } } : r));
    await this.primary.op('checkpoint', {});
    this.scan();
  }

  /** Run i as its next re-run asks it (each call of the next variation); counts as one re-run. */
  nextRerun(i: number): RunScript {
    const r = this.#resumes.get(i) ?? 0;
    this.#resumes.set(i, r + 1);
    return this.#built[i]!.resumed(r);
  }

  /** The session an activity's index points at (modulo what exists). */
  session(index: number): SessionMemory | null {
    return this.sessions.length === 0 ? null : this.sessions[index % this.sessions.length]!;
  }
}

/** Activities that start a driver of their own (a rival, another long-lived process, the restarted primary). */
const STARTS_DRIVERS: ReadonlySet<Activity['kind']> = new Set(['race-prepare', 'race-resume', 'race-held', 'long-lived', 'restart']);

/** Runs a generated trial in `t` (history recording on); harness and driver failures propagate to the caller. */
export async function executeCase(t: TrialContext, c: TrialCase, features: Features): Promise<void> {
  t.enableHistory();
  await new Exec(t, c, features).run();
}
