// The shape of one generated trial: the workload (runs, sessions, activities) and the crash schedule.
import type { Fault, TierMode, Tier, TranscriptTurn } from '../../shared/protocol/schemas.js';
import type { ArgsTemplate } from './arb-args.js';

/** What the implementation and the machine offer: generation never asks for what is not there. */
export interface Features {
  readonly tierMode: TierMode;
  readonly sessions: boolean;
  readonly seeding: boolean;
  readonly outerTransactionProbe: boolean;
  readonly faults: readonly Fault[];
  /** Announced crash points (prepare.before-commit enables the killed-holder race). */
  readonly points: readonly string[];
  /** strace can kill at the N-th durable syscall. */
  readonly strace: boolean;
  /** libfaketime can move a restarted driver's clock. */
  readonly faketime: boolean;
  /** The dimensions profile: shared id pools, look-alike public values (arb-dimensions.ts). */
  readonly dimensions?: boolean;
  /** The kxm.* operations work (the KXM effects-and-recovery contract). */
  readonly kxm: boolean;
  /** Operator resolution is claimed (capabilities.resolution): only then does an operator resolve anything. */
  readonly resolution: boolean;
}

export interface CallPlan {
  readonly slot: number;
  readonly toolId: string;
  readonly tier: Tier;
  readonly args: ArgsTemplate;
  /** Response padding and whether it is multi-byte. */
  readonly padding: number;
  readonly unicode: boolean;
  /** What the model asks at this slot when the node re-runs: the same call in other bytes (key order, rotated secrets, both) or a public change. */
  readonly rerun: ReadonlyArray<'same' | 'reorder' | 'rotate' | 'reorder+rotate' | 'public'>;
  /** Which public value changes (an index into the changes the arguments offer). */
  readonly mutation: number;
}

export interface MappingPlan {
  readonly field: string;
  readonly bound: number;
}

/** What changes when the node re-runs after a crash (the r-th re-run takes the r-th entry, cycling): a response that
 * regenerates fewer calls (first re-run only), an edited output mapping. */
export interface RerunPlan {
  readonly dropFirst: boolean;
  readonly mapping: ReadonlyArray<'same' | 'reorder' | 'changed'>;
}

export interface NodePlan {
  readonly nodeId: string;
  readonly attempt: number;
  readonly calls: readonly CallPlan[];
  readonly mapping: MappingPlan;
  readonly rerun: RerunPlan;
  readonly retain: boolean;
  /** A slot whose target never answers: settled ambiguous. */
  readonly timeoutSlot: number | null;
}

export interface RunPlan {
  readonly runId: string;
  readonly nodes: readonly NodePlan[];
}

export interface TurnPlan {
  readonly calls: readonly CallPlan[];
  readonly status: TranscriptTurn['status'];
  readonly compacted: boolean;
  readonly anomaly: 'none' | 'duplicate' | 'rename' | 'legacy';
  /** How far the turn number jumps from the previous one (9 makes turn 10 follow turn 1). */
  readonly gap: number;
  readonly unsettled: readonly number[];
  readonly timeouts: readonly number[];
  /** Dispatched now, settled when open turns finish: a commit after a concurrent read. */
  readonly deferred: readonly number[];
}

export type ClockJump = '+3h' | '+36h' | '+9d' | '+400d';

import type { KxmPlan } from '../kxm/explore-activity.js';

export type Activity =
  /** KXM effects of one run through the dispatch fence; a kill inside, recovery by the journal's decision after it. */
  | { readonly kind: 'kxm'; readonly plan: KxmPlan }
  /** Starts a run; with `pause`, it stops live after that many nodes and `run-rest` takes it up later. */
  | { readonly kind: 'run'; readonly run: number; readonly pause?: number; readonly fault?: 'settle_write_fails' | 'checkpoint_blocked_by_reader' }
  | { readonly kind: 'run-rest'; readonly run: number }
  | { readonly kind: 'regate'; readonly run: number }
  /** An operator resolves the run's needs_attention rows (accepted when the target shows the write, else discarded). */
  | { readonly kind: 'resolve'; readonly run: number }
  /** An operator resolves the session's unresolved rows truthfully, then the session resumes (read, then sweep). */
  | { readonly kind: 'resolve-session'; readonly session: number }
  | { readonly kind: 'turn'; readonly session: number; readonly turn: TurnPlan }
  /** A turn still running while the session resumes: the read, then the turn's late commits, then the sweep of what was read. */
  | { readonly kind: 'turn-race'; readonly session: number; readonly turn: TurnPlan }
  | { readonly kind: 'finish-turns' }
  | { readonly kind: 'resume'; readonly session: number; readonly noticeFails: boolean; readonly deferSweep: boolean }
  | { readonly kind: 'sweep-later' }
  | { readonly kind: 'repeat-turn'; readonly session: number; readonly pick: number }
  | { readonly kind: 'race-prepare'; readonly attempts: number; readonly delays: readonly number[]; readonly settle: boolean }
  | { readonly kind: 'race-resume'; readonly session: number }
  | { readonly kind: 'race-held' }
  /** The primary reads a run (gates, replays, listing), a second long-lived driver changes its rows, the primary reads again. */
  | { readonly kind: 'long-lived'; readonly run: number; readonly change: 'prepare' | 'resolve' | 'finish' }
  /** A fault switched on around the activity it is meant to disturb, then off again. */
  | { readonly kind: 'fault'; readonly fault: Fault; readonly run: number; readonly session: number }
  | { readonly kind: 'probe-settle'; readonly which: 'unknown' | 'again' }
  | { readonly kind: 'seed'; readonly run: number; readonly session: number; readonly digest: 'unversioned' | 'v4' }
  | { readonly kind: 'outer-sweep'; readonly session: number }
  | { readonly kind: 'checkpoint' }
  | { readonly kind: 'restart'; readonly jump: ClockJump | null };

/**
 * One kill inside an activity: at the n-th passage of a named protocol boundary or announced point, at its `at`-th kill opportunity
 * (any boundary passed or point announced), or at the
 * driver's n-th durable syscall (strace); when the activity ends first, right after it. The restarted driver wakes up
 * `jump` later, and `then` is a second kill during the recovery that follows.
 */
export type KillPlan =
  | { readonly via: 'point'; readonly point: string; readonly occurrence: number; readonly jump: ClockJump | null; readonly then: KillPlan | null }
  | { readonly via: 'boundary'; readonly boundary: string; readonly occurrence: number; readonly jump: ClockJump | null; readonly then: KillPlan | null }
  | { readonly via: 'opportunity'; readonly at: number; readonly jump: ClockJump | null; readonly then: KillPlan | null }
  /** At the n-th durable syscall counted from the `occurrence`-th `op` the activity sends (strace attaches right before it). */
  | { readonly via: 'syscall'; readonly op: 'prepare' | 'settle' | 'runTerminal' | 'sessionSweep' | 'any'; readonly occurrence: number; readonly syscall: 'pwrite64' | 'fdatasync'; readonly n: number; readonly jump: ClockJump | null; readonly then: KillPlan | null };

export interface Step {
  readonly act: Activity;
  readonly kill: KillPlan | null;
}

export interface TrialCase {
  readonly runs: readonly RunPlan[];
  readonly sessions: readonly string[];
  readonly steps: readonly Step[];
}
