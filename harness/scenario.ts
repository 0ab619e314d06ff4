// The shape of a scenario: metadata for listing and reports, the capabilities it needs, and its trial.
import type { Capabilities } from '../shared/protocol/schemas.js';
import type { TrialContext } from './engine/trial-context.js';
import { straceAvailable } from './engine/syscall-sweep.js';
import { clockAvailable } from './engine/moved-clock.js';

/** A capability a scenario needs from the implementation's `hello`. */
export type Need =
  | 'sessions'
  | 'seeding'
  | 'outerTransactionProbe'
  | 'tierMode:reconciling'
  | 'tierMode:conservative'
  | 'kxm'
  | 'resolution'
  | 'sqliteWal'
  | 'harness:strace'
  /** libfaketime on the harness machine: a scenario that restarts a driver hours or days later. */
  | 'harness:clock'
  | `point:${string}`
  /** Any one of the comma-separated crash points announced (a scenario that holds each announced one of a family). */
  | `anyPoint:${string}`
  | `fault:${string}`;

export interface Scenario {
  readonly id: string;
  readonly title: string;
  /** The contract section it checks, e.g. `effect-journal §12.3`. */
  readonly spec: string;
  readonly tags: readonly string[];
  readonly needs: readonly Need[];
  readonly description: string;
  /** Plain-language list of what must hold; each becomes one or more recorded assertions. */
  readonly asserts: readonly string[];
  /**
   * What the trial's seed derives from when it is not the id: a renamed scenario keeps its old id here, so the rename
   * changes no canary, argument or crash a seed draws (the same trial as before, under its new name).
   */
  readonly seedKey?: string;
  trial(t: TrialContext): Promise<void>;
}

/** Declares a scenario; keeps the file a plain object literal with types checked. */
export function defineScenario(scenario: Scenario): Scenario {
  return scenario;
}

/** The first need the implementation's capabilities do not meet, or null. */
export function missingNeed(needs: readonly Need[], caps: Capabilities): string | null {
  for (const need of needs) {
    if (need === 'sessions' && !caps.sessions) return 'sessions';
    if (need === 'seeding' && !caps.seeding) return 'seeding (fixture rows)';
    if (need === 'outerTransactionProbe' && !caps.outerTransactionProbe) return 'outerTransactionProbe';
    if (need === 'kxm' && caps.kxm !== true) return 'kxm (effect classes and recovery operations)';
    if (need === 'resolution' && caps.resolution !== true) return 'resolution (operator resolve, a named follow-up of §8)';
    if (need === 'sqliteWal' && caps.sqliteWal !== true) return 'sqliteWal (SQLite in WAL mode: a SQLite-only control)';
    if (need === 'harness:strace' && !straceAvailable()) return 'strace on the harness machine (with ptrace permitted)';
    if (need === 'harness:clock' && !clockAvailable()) return 'clock jumps (libfaketime, or a C compiler for ejc\'s clock shim) on the harness machine';
    if (need.startsWith('tierMode:') && caps.tierMode !== need.slice('tierMode:'.length)) return `${need} (implementation is ${caps.tierMode})`;
    if (need.startsWith('point:') && !caps.crashPoints.includes(need.slice('point:'.length))) return `announced crash point ${need.slice(6)}`;
    if (need.startsWith('anyPoint:') && !need.slice('anyPoint:'.length).split(',').some((p) => caps.crashPoints.includes(p))) return `announced crash point ${need.slice(9).split(',')[0]} (or another of ${need.slice(9).split(',').slice(1).join(', ')})`;
    if (need.startsWith('fault:') && !(caps.faults as string[]).includes(need.slice('fault:'.length))) return `injectable fault ${need.slice(6)}`;
  }
  return null;
}
