// The write sweeps of every run and KXM operation that writes beyond prepare, settle and the two sweeps: sweep.<op>.every-write.
import type { Scenario } from '../../harness/scenario.js';
import { sweepScenario } from './every-write.js';
import { OP_SWEEP_CASES } from './op-cases.js';
import { KXM_SWEEP_CASES } from './kxm-cases.js';

export const sweepEveryOp: Scenario[] = [...OP_SWEEP_CASES.map((c) => sweepScenario(c)), ...KXM_SWEEP_CASES.map((c) => sweepScenario(c))];
