// Scenario lanes in processes of their own, so each lane's harness work (process scans, file scans, spawns) has a thread.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EjcError, type EjcErrorCode } from '../shared/errors.js';
import { isDeadState, readProc } from './driver/proc-scan.js';
import type { ScenarioRunOptions } from './run-scenario.js';
import type { ScenarioResult } from '../reports/schema.js';

/** What every scenario of a lane shares: the run's scenario options without the callbacks (those come back as messages). */
export type LaneSetup = Omit<ScenarioRunOptions, 'expectedFailure' | 'reproduce' | 'onKept' | 'onSection'> & {
  /** The values the run masks (`--impl-secret`), with their labels, so a lane masks what this process would. */
  readonly secrets: ReadonlyArray<readonly [string, string]>;
};

/** One scenario for a lane to run, with what differs per scenario. */
export interface LaneTask {
  readonly id: string;
  readonly expectedFailure: boolean;
  readonly reproduce: string;
}

export type ToLane = { kind: 'setup'; setup: LaneSetup } | { kind: 'run'; task: LaneTask } | { kind: 'close' };
export type FromLane =
  | { kind: 'kept'; id: string; dir: string }
  | { kind: 'section'; name: string; id: string; value: unknown }
  | { kind: 'done'; result: ScenarioResult }
  | { kind: 'failed'; error: { message: string; code: string | null; stack: string | null } };

export interface LaneEvents {
  onKept(id: string, dir: string): void;
  onSection(name: string, id: string, value: unknown): void;
}

/** Lane processes, one per lane of the run; each runs one scenario at a time. */
export interface LaneProcesses {
  /** Sent once, before the first scenario (the probe's capabilities are in it). */
  setup(setup: LaneSetup): void;
  run(lane: number, task: LaneTask, events: LaneEvents): Promise<ScenarioResult>;
  /** Ends every lane process and resolves once all have exited. */
  close(): Promise<void>;
}

/** The compiled lane entry (runner/lane-worker.js, which loads the catalog); null under the sources (tests), where lanes stay in this process. */
export function laneWorkerFile(): string | null {
  const here = fileURLToPath(import.meta.url);
  if (!here.endsWith('.js')) return null;
  const file = resolve(dirname(here), '../runner/lane-worker.js');
  return existsSync(file) ? file : null;
}

/** How long the harness's exit waits for lane processes to end their drivers before it SIGKILLs what is left. */
const LANE_EXIT_WAIT_MS = 10_000;

/** Forks `count` lane processes; they load the harness while the caller probes the journal. */
export function startLanes(count: number, file: string): LaneProcesses {
  const lanes = Array.from({ length: count }, () => new Lane(file));
  // Each lane cleans up its own drivers and trial directories on SIGTERM, as the CLI does; the harness waits for that
  // on its way out (its exit hook cannot wait on an event), so nothing a lane started outlives the harness.
  const onExit = (): void => endSync(lanes);
  process.on('exit', onExit);
  return {
    setup: (setup) => {
      for (const lane of lanes) lane.send({ kind: 'setup', setup });
    },
    run: (lane, task, events) => lanes[lane]!.run(task, events),
    close: async () => {
      await Promise.all(lanes.map((lane) => lane.close()));
      process.removeListener('exit', onExit);
    },
  };
}

class Lane {
  readonly child: ChildProcess;
  readonly start: number | null;
  #pending: { task: LaneTask; events: LaneEvents; resolve: (r: ScenarioResult) => void; reject: (e: unknown) => void } | null = null;
  #exited: Promise<void>;
  #gone = false;

  constructor(file: string) {
    // Its stdout goes to stderr: the run's stdout carries the report (--json), and nothing of a lane belongs there.
    this.child = fork(file, [], { stdio: ['ignore', 2, 'inherit', 'ipc'], serialization: 'advanced' });
    this.start = this.child.pid === undefined ? null : (readProc(this.child.pid)?.start ?? null);
    this.#exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.#gone = true;
        const pending = this.#pending;
        this.#pending = null;
        pending?.reject(new EjcError('internal', `the lane process running ${pending.task.id} exited (${signal ?? `code ${String(code)}`}) before it finished`));
        resolve();
      });
    });
    // A fork that fails (no such file, no memory) is reported through the exit above or the pending task's reject.
    this.child.on('error', (error) => this.#pending?.reject(new EjcError('internal', `lane process: ${error.message}`, { cause: error })));
    this.child.on('message', (m: FromLane) => this.#onMessage(m));
  }

  send(message: ToLane): void {
    if (!this.#gone && this.child.connected) this.child.send(message);
  }

  run(task: LaneTask, events: LaneEvents): Promise<ScenarioResult> {
    if (this.#pending !== null) throw new EjcError('internal', `lane busy with ${this.#pending.task.id} when handed ${task.id}`);
    if (this.#gone) return Promise.reject(new EjcError('internal', `the lane process is gone; ${task.id} did not run`));
    return new Promise((resolve, reject) => {
      this.#pending = { task, events, resolve, reject };
      this.send({ kind: 'run', task });
    });
  }

  async close(): Promise<void> {
    this.send({ kind: 'close' });
    await this.#exited;
  }

  get alive(): boolean {
    return !this.#gone;
  }

  #onMessage(m: FromLane): void {
    const pending = this.#pending;
    if (pending === null) return;
    if (m.kind === 'kept') pending.events.onKept(m.id, m.dir);
    else if (m.kind === 'section') pending.events.onSection(m.name, m.id, m.value);
    else {
      this.#pending = null;
      if (m.kind === 'done') pending.resolve(m.result);
      else pending.reject(rebuilt(m.error));
    }
  }
}

/** An error from a lane as this process would have thrown it: an EjcError keeps its code, anything else is internal. */
function rebuilt(error: { message: string; code: string | null; stack: string | null }): Error {
  if (error.code !== null) return new EjcError(error.code as EjcErrorCode, error.message);
  const out = new Error(error.message);
  if (error.stack !== null) out.stack = error.stack;
  return out;
}

// SIGTERM to every lane still running, then a bounded synchronous wait until each is dead (a zombie is: it is ours to reap).
function endSync(lanes: readonly Lane[]): void {
  const live = lanes.filter((l) => l.alive && l.child.pid !== undefined);
  for (const lane of live) signal(lane.child.pid!, 'SIGTERM');
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + LANE_EXIT_WAIT_MS;
  const running = (l: Lane): boolean => {
    const now = readProc(l.child.pid!);
    return now !== null && now.start === l.start && !isDeadState(now.state);
  };
  let waiting = live.filter(running);
  while (waiting.length > 0 && Date.now() < deadline) {
    Atomics.wait(cell, 0, 0, 5);
    waiting = waiting.filter(running);
  }
  for (const lane of waiting) signal(lane.child.pid!, 'SIGKILL');
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}
