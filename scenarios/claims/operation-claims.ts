// The operations a capability stands for, probed: claimed false must answer unsupported, claimed true must not; gate: "harness" agreed with.
import type { Capabilities, GateDecision, JournalErrorCode, RunScope, TierMode } from '../../shared/protocol/schemas.js';
import type { JournalClient, TryResult } from '../../harness/engine/journal-client.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import { decideGate } from '../../harness/engine/harness-gate.js';
import { excludedByClaim } from './excluded.js';

type Answer = { ok: true } | { ok: false; code: JournalErrorCode; message: string };
type ClaimName = 'sessions' | 'kxm' | 'resolution' | 'seeding';

export interface OperationClaim {
  readonly capability: ClaimName;
  readonly op: string;
  /** The answers that say "this journal does not have it". */
  readonly unsupported: readonly JournalErrorCode[];
  probe(t: TrialContext, client: JournalClient, at: { runId: string; effectId: string | null }): Promise<Answer>;
}

/** One finding: an assertion's name, what was expected and what the journal answered. */
export interface ClaimFinding {
  readonly name: string;
  readonly expected: string;
  readonly actual: string;
  readonly passed: boolean;
}

/** Each probed capability with the cheapest request that only a journal having it can answer with a result. */
export const OPERATION_CLAIMS: readonly OperationClaim[] = [
  { capability: 'sessions', op: 'sessionRead', unsupported: ['unsupported'], probe: (t, c) => answer(c.try('sessionRead', { sessionId: t.rng.id('session'), transcript: [] })) },
  { capability: 'kxm', op: 'kxm.list', unsupported: ['unsupported'], probe: (t, c) => answer(c.try('kxm.list', { runId: t.rng.id('run') })) },
  {
    capability: 'seeding',
    op: 'seed',
    unsupported: ['seed_unsupported', 'unsupported'],
    probe: (t, c) => answer(c.try('seed', { rows: [{ scope: { kind: 'run', runId: t.rng.id('run'), nodeId: 'node-a' }, slot: 0, toolId: 'http_request', tier: 3, state: 'committed', argsDigest: `v5:${'0'.repeat(64)}`, callId: t.rng.id('call'), resultJson: null }] })),
  },
  {
    capability: 'resolution',
    op: 'resolve',
    unsupported: ['unsupported'],
    // An unresolved tier-3 effect of this trial: a journal with resolution answers its row, whatever it decides.
    probe: async (_t, c, at) => (at.effectId === null ? { ok: false, code: 'internal', message: 'the probe prepare did not proceed' } : answer(c.try('resolve', { effectId: at.effectId, decision: 'discarded', actor: 'ejc-claims-probe' }))),
  },
];

/** The finding for one capability from the journal's answer to its probe. */
export function claimedOperation(claim: OperationClaim, caps: Capabilities, got: Answer): ClaimFinding {
  const claimed = caps[claim.capability] === true;
  const actual = got.ok ? `${claim.op} answered a result` : `${claim.op} answered ${got.code}: ${got.message}`;
  if (claimed) {
    const passed = got.ok || !claim.unsupported.includes(got.code);
    return { name: `${claim.op} works, as capabilities.${claim.capability}: true claims`, expected: 'a result or a contract error, not unsupported', actual, passed };
  }
  const passed = !got.ok && claim.unsupported.includes(got.code);
  const consequence = passed ? '' : `; the claim kept out ${excludedByClaim(claim.capability, caps)}: declare ${claim.capability}: true so they run, or answer ${claim.unsupported[0]}`;
  return { name: `${claim.op} answers ${claim.unsupported.join(' or ')}, as capabilities.${claim.capability}: ${String(caps[claim.capability] ?? 'absent')} says`, expected: claim.unsupported.join(' or '), actual: `${actual}${consequence}`, passed };
}

/**
 * With outerTransactionProbe: false, the answer of a sessionSweep sent with `insideOuterTransaction: true`: ignoring the
 * flag (a plain sweep) or `unsupported` are what a journal without the probe gives; `outer_transaction` only a journal
 * that has it can give, and the claim then kept cp11.session-sweep.outer-transaction (which also requires nothing
 * deleted) out of the run.
 */
export function outerProbeClaimFinding(caps: Capabilities, got: Answer): ClaimFinding {
  const actual = got.ok ? 'sessionSweep answered a result (the flag ignored)' : `sessionSweep answered ${got.code}: ${got.message}`;
  const passed = got.ok || got.code !== 'outer_transaction';
  const consequence = passed ? '' : `; the claim kept out ${excludedByClaim('outerTransactionProbe', caps)}: declare outerTransactionProbe: true so they run`;
  return {
    name: 'sessionSweep with insideOuterTransaction does not answer outer_transaction, as capabilities.outerTransactionProbe: false says',
    expected: 'a plain sweep (the flag ignored) or unsupported',
    actual: `${actual}${consequence}`,
    passed,
  };
}

/** With gate: "harness" the harness gates from the rows; a journal gate that answers anyway must decide as the harness does. */
export async function gateClaimFinding(client: JournalClient, scope: RunScope, tierMode: TierMode): Promise<ClaimFinding> {
  const own = await client.try('gate', { scope, attempt: 1 });
  const listed = await client.try('listEffects', {});
  const name = 'the journal\'s own gate answers unsupported or the harness-side decision, as capabilities.gate: "harness" says';
  if (!own.ok) {
    return { name, expected: 'unsupported, or the decision of the harness-side gate', actual: `gate answered ${own.code}: ${own.message}`, passed: own.code === 'unsupported' };
  }
  if (!listed.ok) return { name, expected: 'listEffects answers the rows the harness gates from', actual: `listEffects answered ${listed.code}`, passed: false };
  const harness = decideGate(listed.result.effects, scope, tierMode);
  return { name, expected: `gate decision ${harness.decision} (the harness-side gate over the rows)`, actual: `gate decision ${own.result.decision}${words(own.result)}`, passed: own.result.decision === harness.decision };
}

function words(d: GateDecision): string {
  return d.refusal === null ? '' : ` (${d.refusal.code})`;
}

async function answer<O extends Parameters<JournalClient['try']>[0]>(pending: Promise<TryResult<O>>): Promise<Answer> {
  const got = await pending;
  return got.ok ? { ok: true } : { ok: false, code: got.code, message: got.message };
}
