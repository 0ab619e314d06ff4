// The crash schedule of a generated trial: which kill comes next, where it fires, and the clock a restarted driver wakes up to.
import type { JournalClient } from '../engine/journal-client.js';
import type { KillSchedule } from '../engine/trial-context.js';
import type { ClockJump, KillPlan } from './case.js';
import { clockLibrary, movedClockEnv } from '../clock/clock-library.js';

/** Holds the kill armed for the current activity (or recovery) and fires it at its opportunity on the primary driver. */
export class CrashSchedule implements KillSchedule {
  #armed: KillPlan | null = null;
  #count = 0;
  #force = false;
  #primary: JournalClient | null = null;
  #fired: KillPlan | null = null;

  /** The kill waiting to fire, if any. */
  get armed(): KillPlan | null {
    return this.#armed;
  }

  arm(plan: KillPlan): void {
    this.#armed = plan;
    this.#count = 0;
    this.#force = false;
  }

  /** Only the primary driver is killed by the schedule (rivals come and go with their race). */
  watch(primary: JournalClient): void {
    this.#primary = primary;
    this.#count = 0;
  }

  opportunity(where: string, client: JournalClient): boolean {
    const plan = this.#armed;
    if (plan === null || client !== this.#primary) return false;
    if (!this.#force) {
      // A syscall kill is strace's to deliver, unless the activity ended without reaching it.
      if (plan.via === 'syscall') return false;
      if (plan.via === 'boundary' && where !== `boundary:${plan.boundary}`) return false;
      if (plan.via === 'point' && where !== `point:${plan.point}`) return false;
      this.#count += 1;
      if (this.#count < (plan.via === 'opportunity' ? plan.at : plan.occurrence)) return false;
    }
    this.#fired = plan;
    this.#armed = null;
    this.#force = false;
    return true;
  }

  /** The activity ended before its kill: the kill fires at the very next opportunity. */
  forceNext(): void {
    this.#force = true;
  }

  /** After a kill at `at`: the plan that caused it, or null for a kill the trial made itself (a race's held prepare). */
  takeFired(at: string): KillPlan | null {
    let plan = this.#fired;
    if (plan === null && at.startsWith('syscall:') && this.#armed?.via === 'syscall') plan = this.#armed;
    if (plan !== null && plan === this.#armed) this.#armed = null;
    this.#fired = null;
    return plan;
  }
}

const HOURS: Record<ClockJump, number> = { '+3h': 3, '+36h': 36, '+9d': 216, '+400d': 9600 };

/** The clock of restarted drivers: jumps add up, time never runs backwards. */
export class TrialClock {
  #hours = 0;

  jump(by: ClockJump | null): void {
    if (by !== null) this.#hours += HOURS[by];
  }

  get hours(): number {
    return this.#hours;
  }

  /** The environment a driver starts with: its clock moved by the hours jumped so far, else nothing. */
  env(): Record<string, string> | undefined {
    return this.envAfter(null);
  }

  /** The environment a driver will start with once the clock has jumped `by` (the clock itself does not move). */
  envAfter(by: ClockJump | null): Record<string, string> | undefined {
    const hours = this.#hours + (by === null ? 0 : HOURS[by]);
    return hours === 0 ? undefined : (movedClockEnv(hours) ?? undefined);
  }
}

/** The library that moves a driver's clock (libfaketime, else ejc's own shim); null when neither can be had. */
export function faketimeLibrary(): string | null {
  return clockLibrary()?.path ?? null;
}
