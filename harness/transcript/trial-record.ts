// One trial's record of the wire and what happened around it: the kept transcript and the report's timeline both come from it.
import { performance } from 'node:perf_hooks';
import type { Kill, TrialEvent } from '../../reports/schema.js';
import { timelineOf } from './timeline.js';

/** One protocol line as a driver process saw it: what the harness sent or what the implementation wrote. */
export interface WireLine {
  readonly direction: 'send' | 'recv';
  /** The line's protocol sequence number (both directions share one counter per driver). */
  readonly seq: number;
  readonly line: string;
}

/** One entry of the record; `t` is milliseconds since the trial began. */
export type RecordEntry =
  | { readonly t: number; readonly kind: 'start'; readonly driver: string; pid: number | null }
  | { readonly t: number; readonly kind: 'wire'; readonly driver: string; readonly direction: 'send' | 'recv'; readonly seq: number; readonly line: string }
  | { readonly t: number; readonly kind: 'exit'; readonly driver: string; readonly signal: string | null; readonly exitCode: number | null; readonly killedByHarness: boolean }
  | { readonly t: number; readonly kind: 'kill'; readonly driver: string; readonly planned: string; readonly point: string; readonly seq: number; readonly signal: string | null }
  | { readonly t: number; readonly kind: 'restart'; readonly driver: string; readonly journalDir: string }
  | { readonly t: number; readonly kind: 'target'; readonly target: string; readonly tier: number; readonly entry: 'attempt' | 'write' | 'dedup'; readonly generation: number }
  | { readonly t: number; readonly kind: 'disclosure'; readonly driver: string | null; readonly count: number };

/** Bytes of wire lines one trial keeps in memory; past it, lines are counted but their text is dropped. */
export const MAX_RECORD_LINE_BYTES = 16 * 1024 * 1024;

/** The append-only record of one trial. */
export class TrialRecord {
  readonly #entries: RecordEntry[] = [];
  readonly #origin: number;
  readonly #now: () => number;
  #lineBytes = 0;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
    this.#origin = now();
  }

  /** Milliseconds since the trial began, for an entry recorded later than it happened (a kill is known once reaped). */
  now(): number {
    return Math.max(0, this.#now() - this.#origin);
  }

  /** A driver is being spawned; its pid is known once the spawn returned, so the caller fills it in. */
  start(driver: string): { setPid(pid: number): void } {
    const entry: Extract<RecordEntry, { kind: 'start' }> = { t: this.now(), kind: 'start', driver, pid: null };
    this.#entries.push(entry);
    return { setPid: (pid) => void (entry.pid = pid) };
  }

  /** A line on the wire; its text is kept until the trial's byte cap is reached. */
  wire(driver: string, line: WireLine): void {
    this.#lineBytes += line.line.length;
    const text = this.#lineBytes > MAX_RECORD_LINE_BYTES ? `(line of ${line.line.length} characters dropped: the trial's transcript cap is reached)` : line.line;
    this.#push({ kind: 'wire', driver, direction: line.direction, seq: line.seq, line: text });
  }

  exit(driver: string, info: { signal: string | null; exitCode: number | null; killedByHarness: boolean }): void {
    this.#push({ kind: 'exit', driver, ...info });
  }

  /** A kill, placed at `at` (when it was sent) when given: its signal is only known after the reap the exit entry records. */
  kill(kill: Kill, at?: number): void {
    this.#push({ kind: 'kill', driver: kill.driver, planned: kill.planned, point: kill.point, seq: kill.seq, signal: kill.signal }, at);
  }

  restart(driver: string, journalDir: string): void {
    this.#push({ kind: 'restart', driver, journalDir });
  }

  target(entry: { target: string; tier: number; entry: 'attempt' | 'write' | 'dedup'; generation: number }): void {
    this.#push({ kind: 'target', ...entry });
  }

  disclosure(driver: string | null, count: number): void {
    this.#push({ kind: 'disclosure', driver, count });
  }

  /** Names everything recorded of driver `from` as `to`: a driver started ahead takes the name of the call that used it. */
  rename(from: string, to: string): void {
    for (const e of this.#entries) if ('driver' in e && e.driver === from) (e as { driver: string }).driver = to;
  }

  /** Everything recorded so far, in the order it happened (a stable sort by time). */
  entries(): readonly RecordEntry[] {
    return [...this.#entries].sort((a, b) => a.t - b.t);
  }

  /** The compact, bounded timeline for the report. */
  timeline(): TrialEvent[] {
    return timelineOf(this.entries());
  }

  /**
   * Takes in another trial's record (a generated trial run in its own context) at the times its entries happened,
   * so this trial's timeline and kept transcript show what that trial did.
   */
  adopt(other: TrialRecord): void {
    const offset = other.#origin - this.#origin;
    for (const e of other.#entries) this.#entries.push({ ...e, t: Math.max(0, e.t + offset) });
  }

  #push(entry: { kind: RecordEntry['kind'] } & Record<string, unknown>, at?: number): void {
    this.#entries.push({ t: at ?? this.now(), ...entry } as RecordEntry);
  }
}
