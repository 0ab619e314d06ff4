// The scenario catalog: every scenario in a stable order, with listing metadata for `ejc list` and docs.
import type { Scenario } from '../harness/scenario.js';
import { RENAMED_SCENARIOS } from './renamed.js';
import { cp01 } from './crash-matrix/cp01-prepare-before-commit.js';
import { cp02cp03 } from './crash-matrix/cp02-cp03-unresolved.js';
import { cp04cp05 } from './crash-matrix/cp04-cp05-replay.js';
import { cp06 } from './crash-matrix/cp06-two-effects.js';
import { cp07cp08 } from './crash-matrix/cp07-cp08-contention-and-faults.js';
import { cp09 } from './crash-matrix/cp09-tiers.js';
import { cp10 } from './crash-matrix/cp10-session-disclosure.js';
import { cp11run } from './crash-matrix/cp11-run-retention.js';
import { cp11session } from './crash-matrix/cp11-session-sweep.js';
import { sessionAcceptance } from './disclosure/acceptance.js';
import { secrets } from './secrets/wal.js';
import { secretShapes } from './secrets/shapes.js';
import { journalContract } from './recovery/contract-points.js';
import { sessionResolution } from './recovery/session-resolution.js';
import { journalDigest } from './digest/persisted-form.js';
import { sweepEveryWrite } from './sweep/every-write.js';
import { kxmRecovery } from './kxm/recovery.js';
import { kxmResolution } from './kxm/resolution.js';
import { kxmCancelLease } from './kxm/cancel-lease.js';
import { s8e } from './s8e/batch.js';
import { s8eReadback } from './s8e/readback.js';
import { kxmRaces } from './kxm/races.js';
import { exploreFamily } from './explore/family.js';
import { edgeDigest } from './digest/canonical-corners.js';
import { edgeErasure } from './erasure/erasure.js';
import { edgeKxm } from './kxm/lease-edges.js';
import { edgeSessions } from './erasure/session-results.js';
import { metamorphicGate } from './gate/every-cell.js';
import { metamorphicIdentity } from './identity/inputs.js';
import { metamorphicRefusals } from './replay/inputs-that-count.js';
import { metamorphicStateMachine } from './recovery/state-machine.js';
import { claimsHello } from './claims/hello.js';
import { blindIdentity } from './identity/tier1-key-equal-args.js';
import { blindKxm } from './kxm/lease-sub-second.js';
import { blindRetention } from './retention/sibling-run-ids.js';
import { blindSessions } from './disclosure/compacted-incomplete-turns.js';
import { blind2OpenSweep } from './sweep/open-every-write.js';
import { blind2Identity } from './identity/tier1-key-never-repeats.js';
import { blind2Replay } from './replay/loosely-equal-changes.js';
import { blind3Identity } from './identity/tool-ids-exact.js';
import { blind3Concurrency } from './concurrency/interleaved-writers.js';
import { longLivedConcurrency } from './concurrency/long-lived.js';
import { gapPoints } from './claims/crash-points-beyond-prepare.js';
import { gapWrittenFiles } from './claims/written-files-listed.js';
import { secretsSize } from './secrets/size.js';
import { gateHoursLater } from './gate/hours-later.js';
import { retentionDaysLater } from './retention/days-later.js';
import { sweepEveryOp } from './sweep/every-op.js';
import { digestPublicValues } from './digest/public-values-count.js';
import { identityCollisions } from './identity/ids-collide-across-kinds.js';
import { gateScale } from './gate/scale.js';
import { longSession } from './disclosure/long-session.js';
import { lateSettle } from './concurrency/late-settle.js';

export interface ScenarioInfo {
  id: string;
  title: string;
  spec: string;
  tags: string[];
  needs: string[];
  description: string;
  asserts: string[];
}

let cached: Scenario[] | null = null;

/** Every scenario, sorted by id; ids are unique (checked here, once). */
export function allScenarios(): Scenario[] {
  if (cached) return cached;
  const all = [...cp01, ...cp02cp03, ...cp04cp05, ...cp06, ...cp07cp08, ...cp09, ...cp10, ...cp11run, ...cp11session, ...sessionAcceptance, ...secrets, ...secretShapes, ...journalContract, ...sessionResolution, ...journalDigest, ...sweepEveryWrite, ...kxmRecovery, ...kxmResolution, ...kxmCancelLease, ...kxmRaces, ...s8e, ...s8eReadback, ...exploreFamily, ...edgeDigest, ...edgeErasure, ...edgeKxm, ...edgeSessions, ...metamorphicGate, ...metamorphicIdentity, ...metamorphicRefusals, ...metamorphicStateMachine, ...claimsHello, ...blindIdentity, ...blindKxm, ...blindRetention, ...blindSessions, ...blind2Identity, ...blind2OpenSweep, ...blind2Replay, ...blind3Identity, ...blind3Concurrency, ...longLivedConcurrency, ...gapPoints, ...gapWrittenFiles, ...secretsSize, ...gateHoursLater, ...retentionDaysLater, ...sweepEveryOp, ...digestPublicValues, ...identityCollisions, ...gateScale, ...longSession, ...lateSettle];
  const seen = new Set<string>();
  for (const s of all) {
    if (seen.has(s.id)) throw new Error(`duplicate scenario id ${s.id}`);
    seen.add(s.id);
  }
  // A renamed scenario draws from its old id's seed, so the rename changed no trial.
  const oldIds = new Map(Object.entries(RENAMED_SCENARIOS).map(([old, now]) => [now, old]));
  cached = all.map((s) => (oldIds.has(s.id) ? { ...s, seedKey: oldIds.get(s.id)! } : s)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return cached;
}

/** Listing metadata of every scenario, in catalog order. */
export function listScenarios(): ScenarioInfo[] {
  return allScenarios().map((s) => ({ id: s.id, title: s.title, spec: s.spec, tags: [...s.tags], needs: [...s.needs], description: s.description, asserts: [...s.asserts] }));
}

/** One scenario by id, or undefined. */
export function getScenario(id: string): Scenario | undefined {
  return allScenarios().find((s) => s.id === id);
}
