// The scenario catalog: every scenario in a stable order, with listing metadata for `ejc list` and docs.
import type { Scenario } from './define.js';
import { cp01 } from './cp01-prepare-before-commit.js';
import { cp02cp03 } from './cp02-cp03-unresolved.js';
import { cp04cp05 } from './cp04-cp05-replay.js';
import { cp06 } from './cp06-two-effects.js';
import { cp07cp08 } from './cp07-cp08-contention-and-faults.js';
import { cp09 } from './cp09-tiers.js';
import { cp10 } from './cp10-session-disclosure.js';
import { cp11run } from './cp11-run-retention.js';
import { cp11session } from './cp11-session-sweep.js';
import { sessionAcceptance } from './session-acceptance.js';
import { secrets } from './secrets-wal.js';
import { secretShapes } from './secrets-shapes.js';
import { journalContract } from './journal-contract.js';
import { journalDigest } from './journal-digest.js';
import { sweepEveryWrite } from './sweep-every-write.js';
import { kxmRecovery } from './kxm-recovery.js';
import { kxmResolution } from './kxm-resolution.js';
import { kxmCancelLease } from './kxm-cancel-lease.js';
import { s8e } from './s8e-batch.js';
import { s8eReadback } from './s8e-readback.js';
import { kxmRaces } from './kxm-races.js';
import { exploreFamily } from './explore-family.js';
import { edgeDigest } from './edge-digest.js';
import { edgeErasure } from './edge-erasure.js';
import { edgeKxm } from './edge-kxm.js';
import { edgeSessions } from './edge-sessions.js';
import { metamorphicGate } from './metamorphic-gate.js';
import { metamorphicIdentity } from './metamorphic-identity.js';
import { metamorphicRefusals } from './metamorphic-refusals.js';
import { metamorphicStateMachine } from './metamorphic-state-machine.js';
import { claimsHello } from './claims-hello.js';
import { blindIdentity } from './blind-identity.js';
import { blindKxm } from './blind-kxm.js';
import { blindRetention } from './blind-retention.js';
import { blindSessions } from './blind-sessions.js';
import { blind2OpenSweep } from './blind2-open-sweep.js';
import { blind2Identity } from './blind2-identity.js';
import { blind2Replay } from './blind2-replay.js';
import { blind3Identity } from './blind3-identity.js';
import { blind3Concurrency } from './blind3-concurrency.js';
import { gapPoints } from './gap-points.js';
import { gapWrittenFiles } from './gap-written-files.js';
import { secretsSize } from './secrets-size.js';
import { digestPublicValues } from './digest/public-values-count.js';
import { identityCollisions } from './identity/ids-collide-across-kinds.js';
import { gateScale } from './gate/scale.js';

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
  const all = [...cp01, ...cp02cp03, ...cp04cp05, ...cp06, ...cp07cp08, ...cp09, ...cp10, ...cp11run, ...cp11session, ...sessionAcceptance, ...secrets, ...secretShapes, ...journalContract, ...journalDigest, ...sweepEveryWrite, ...kxmRecovery, ...kxmResolution, ...kxmCancelLease, ...kxmRaces, ...s8e, ...s8eReadback, ...exploreFamily, ...edgeDigest, ...edgeErasure, ...edgeKxm, ...edgeSessions, ...metamorphicGate, ...metamorphicIdentity, ...metamorphicRefusals, ...metamorphicStateMachine, ...claimsHello, ...blindIdentity, ...blindKxm, ...blindRetention, ...blindSessions, ...blind2Identity, ...blind2OpenSweep, ...blind2Replay, ...blind3Identity, ...blind3Concurrency, ...gapPoints, ...gapWrittenFiles, ...secretsSize, ...digestPublicValues, ...identityCollisions, ...gateScale];
  const seen = new Set<string>();
  for (const s of all) {
    if (seen.has(s.id)) throw new Error(`duplicate scenario id ${s.id}`);
    seen.add(s.id);
  }
  cached = all.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
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
