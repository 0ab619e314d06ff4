// The KXM operations of a history, checked against the KXM model: classes, the lease fence, recovery, resolution, cancel.
import type { KxmClass, KxmEffect, KxmEffectState, OpParams, OpResult } from '../../shared/protocol/schemas.js';
import type { OpAnswer } from '../model/history.js';
import { cancelOutcome, expectedClass, expectedDecision, resolutionOutcome, type KxmObservation } from './model.js';
import type { Failure } from '../model/outcome.js';

interface KEffect {
  id: string | null;
  readonly identity: string;
  readonly runId: string;
  readonly cls: KxmClass;
  attemptId: string;
  key: string | null;
  state: KxmEffectState;
  /** Recoveries of the effect while it was unsettled (dispatched or blocked): the least and most a kill leaves recorded. */
  recoveries: { min: number; max: number };
  readonly lease: { readonly id: string; readonly token: number; readonly expiresAt: number } | null;
}

/** Folds the kxm.* operations; sequential (the explorer never races them). */
export class KxmChecker {
  readonly #effects: KEffect[] = [];
  readonly #cancelled = new Set<string>();
  readonly #top = new Map<string, number>();

  /** Checks one kxm.* operation; null when its answer is allowed. */
  step(op: string, params: unknown, answer: OpAnswer): Failure | null {
    if (answer.kind === 'killed') {
      this.#killed(op, params, answer.at);
      return null;
    }
    switch (op) {
      case 'kxm.declare':
        return this.#declare(params as OpParams<'kxm.declare'>, answer);
      case 'kxm.dispatch':
        return this.#dispatch(params as OpParams<'kxm.dispatch'>, answer);
      case 'kxm.complete':
        return this.#complete(params as OpParams<'kxm.complete'>, answer);
      case 'kxm.recover':
        return this.#recover(params as OpParams<'kxm.recover'>, answer);
      case 'kxm.resolve':
        return this.#resolve(params as OpParams<'kxm.resolve'>, answer);
      case 'kxm.cancel':
        return this.#cancel(params as OpParams<'kxm.cancel'>, answer);
      case 'kxm.list':
        return this.#list(answer);
      default:
        return null;
    }
  }

  #declare(p: OpParams<'kxm.declare'>, answer: OpAnswer): Failure | null {
    const identity = JSON.stringify([p.runId, p.assignmentId, p.slot]);
    const where = `kxm.declare ${p.toolId} of run ${JSON.stringify(p.runId)}`;
    if (answer.kind !== 'result') return fail('kxm.class', where, 'recorded or refused', answer);
    const v = answer.result as OpResult<'kxm.declare'>;
    if (this.#cancelled.has(p.runId)) return v.verdict === 'refused' && v.code === 'run_cancelled' ? null : fail('kxm.cancel', `${where} after cancellation`, 'refused (run_cancelled)', v.verdict);
    if (this.#effects.some((e) => e.identity === identity)) return v.verdict === 'refused' && v.code === 'duplicate_identity' ? null : fail('kxm.class', `${where}, an identity already declared`, 'refused (duplicate_identity)', v.verdict);
    if (v.verdict !== 'recorded') return fail('kxm.class', where, 'recorded', `refused (${v.code})`);
    const want = expectedClass(p.registry, p.toolId, p.declaredClass);
    if (v.effect.effectClass !== want.effectClass || v.effect.declarationAccepted !== want.declarationAccepted) {
      return fail('kxm.class', `${where}${p.declaredClass ? ` declaring ${p.declaredClass}` : ''}`, want, { effectClass: v.effect.effectClass, declarationAccepted: v.effect.declarationAccepted });
    }
    this.#add(p, v.effect.effectId, v.effect.idempotencyKey, want.effectClass);
    return this.#keyClash(this.#effects.at(-1)!, where) ?? this.#diagnostics(v.effect, where);
  }

  // One deterministic key per assignment effect: two assignments under one key are one write to a keyed target.
  #keyClash(e: KEffect, where: string): Failure | null {
    const other = e.key === null ? undefined : this.#effects.find((o) => o !== e && o.identity !== e.identity && o.key === e.key);
    return other ? fail('kxm.key', `${where}: the idempotency key`, 'a key no other assignment effect holds', `${e.key}, already the key of ${other.identity}`) : null;
  }

  // The recorded reconciliation attempts: the recoveries the engine made of the effect while it was unsettled.
  #diagnostics(x: KxmEffect, where: string): Failure | null {
    const e = this.#effects.find((m) => m.identity === JSON.stringify([x.runId, x.assignmentId, x.slot]));
    if (!e || (x.reconciliationAttempts >= e.recoveries.min && x.reconciliationAttempts <= e.recoveries.max)) return null;
    const want = e.recoveries.min === e.recoveries.max ? e.recoveries.min : `${e.recoveries.min}–${e.recoveries.max}`;
    return fail('kxm.diagnostics', `${where}: reconciliationAttempts of ${x.effectId}`, want, x.reconciliationAttempts);
  }

  #add(p: OpParams<'kxm.declare'>, id: string | null, key: string | null, cls: KxmClass): void {
    const lease = p.lease ? { id: p.lease.leaseId, token: p.lease.fencingToken, expiresAt: p.lease.expiresAt } : null;
    if (lease) this.#top.set(lease.id, Math.max(this.#top.get(lease.id) ?? -Infinity, lease.token));
    this.#effects.push({ id, identity: JSON.stringify([p.runId, p.assignmentId, p.slot]), runId: p.runId, cls, attemptId: p.attemptId, key, state: 'intent', recoveries: { min: 0, max: 0 }, lease });
  }

  #fence(e: KEffect, now: number): { expired: boolean; fenced: boolean } {
    return { expired: e.lease !== null && now >= e.lease.expiresAt, fenced: e.lease !== null && (this.#top.get(e.lease.id) ?? -Infinity) > e.lease.token };
  }

  #dispatch(p: OpParams<'kxm.dispatch'>, answer: OpAnswer): Failure | null {
    const e = this.#find(p.effectId);
    if (!e) return null;
    const where = `kxm.dispatch of ${p.effectId} at ${p.now}`;
    if (e.state !== 'intent') return answer.kind === 'error' ? null : fail('kxm.fence', `${where} (${e.state}, not an intent)`, 'error kxm_invalid', answer);
    if (answer.kind !== 'result') return fail('kxm.fence', where, 'a dispatch answer', answer);
    const r = answer.result as OpResult<'kxm.dispatch'>;
    const { expired, fenced } = this.#fence(e, p.now);
    const cancelled = this.#cancelled.has(e.runId);
    const started = !cancelled && !expired && !fenced;
    const reasons = cancelled ? ['run_cancelled'] : [...(expired ? ['lease_expired'] : []), ...(fenced ? ['lease_fenced'] : [])];
    if (r.started !== started || (!started && !reasons.includes(r.reason ?? ''))) return fail('kxm.fence', where, started ? 'started' : `not started (${reasons.join(' | ')})`, r.started ? 'started' : `not started (${r.reason})`);
    if (e.key !== null && r.idempotencyKey !== e.key) return fail('kxm.key', where, e.key, r.idempotencyKey);
    e.state = started ? 'dispatched' : cancelled ? 'cancelled' : 'not_started';
    return null;
  }

  #complete(p: OpParams<'kxm.complete'>, answer: OpAnswer): Failure | null {
    const e = this.#find(p.effectId);
    if (!e) return null;
    if (e.state !== 'dispatched') return answer.kind === 'error' ? null : fail('kxm.recovery', `kxm.complete of ${p.effectId} (${e.state})`, 'error kxm_invalid', answer);
    if (answer.kind !== 'result' || (answer.result as KxmEffect).state !== 'completed') return fail('kxm.recovery', `kxm.complete of ${p.effectId}`, 'completed', answer);
    e.state = 'completed';
    return this.#diagnostics(answer.result as KxmEffect, `kxm.complete of ${p.effectId}`);
  }

  #recover(p: OpParams<'kxm.recover'>, answer: OpAnswer): Failure | null {
    const e = this.#find(p.effectId);
    if (!e) return null;
    const { expired, fenced } = this.#fence(e, p.now);
    const want = expectedDecision(e.state, e.cls, p.observation as KxmObservation, expired, fenced && e.state === 'intent');
    const where = `kxm.recover of ${p.effectId} (${e.cls}, ${e.state}; process ${p.observation.process}, receipt ${p.observation.receipt.kind}${p.observation.postcondition ? `, postcondition ${p.observation.postcondition}` : ''})`;
    if (answer.kind !== 'result') return fail('kxm.recovery', where, want.decision, answer);
    const r = answer.result as OpResult<'kxm.recover'>;
    if (r.decision !== want.decision || r.state !== want.state) return fail('kxm.recovery', where, want, { decision: r.decision, state: r.state });
    if (e.key !== null && r.idempotencyKey !== e.key) return fail('kxm.key', `${where}: the key of ${r.decision}`, e.key, r.idempotencyKey);
    if (unsettled(e.state)) e.recoveries = { min: e.recoveries.min + 1, max: e.recoveries.max + 1 };
    e.state = want.state;
    return null;
  }

  #resolve(p: OpParams<'kxm.resolve'>, answer: OpAnswer): Failure | null {
    const e = this.#find(p.effectId);
    if (!e) return null;
    const where = `kxm.resolve ${p.effectId} ${p.action}`;
    if (e.state !== 'blocked_uncertain') return answer.kind === 'error' ? null : fail('kxm.resolution', `${where} (${e.state}, not blocked)`, 'error kxm_invalid', answer);
    const outcome = resolutionOutcome(p.action, p.reason, p.evidence, e.attemptId);
    if (outcome === null) return answer.kind === 'error' && answer.code === 'kxm_evidence_missing' ? null : fail('kxm.resolution', `${where} without its required evidence`, 'error kxm_evidence_missing', answer);
    if (answer.kind !== 'result' || (answer.result as KxmEffect).state !== outcome) return fail('kxm.resolution', where, outcome, answer);
    e.state = outcome;
    if (outcome === 'intent' && p.evidence.newAttemptId) e.attemptId = p.evidence.newAttemptId;
    return this.#diagnostics(answer.result as KxmEffect, where);
  }

  #cancel(p: OpParams<'kxm.cancel'>, answer: OpAnswer): Failure | null {
    const where = `kxm.cancel of run ${JSON.stringify(p.runId)}`;
    if (p.reason.trim() === '') return answer.kind === 'error' ? null : fail('kxm.cancel', `${where} without a reason`, 'error kxm_evidence_missing', answer);
    const mine = this.#effects.filter((e) => e.runId === p.runId);
    for (const e of mine) if (e.state === 'intent') e.state = 'cancelled';
    this.#cancelled.add(p.runId);
    const want = cancelOutcome(mine.map((e) => e.state));
    if (answer.kind !== 'result') return fail('kxm.cancel', where, want, answer);
    const r = answer.result as { state: string };
    return r.state === want ? null : fail('kxm.cancel', where, want, r.state);
  }

  #list(answer: OpAnswer): Failure | null {
    if (answer.kind !== 'result') return null;
    for (const x of (answer.result as { effects: KxmEffect[] }).effects) {
      const identity = JSON.stringify([x.runId, x.assignmentId, x.slot]);
      const e = this.#effects.find((m) => m.identity === identity);
      if (!e) return fail('kxm.recovery', `kxm.list: effect ${x.effectId}`, 'an effect the run declared', 'unknown');
      e.id ??= x.effectId;
      e.key ??= x.idempotencyKey;
      if (x.state !== e.state) return fail('kxm.recovery', `kxm.list: state of ${x.effectId}`, e.state, x.state);
      const problem = this.#keyClash(e, 'kxm.list') ?? this.#diagnostics(x, 'kxm.list');
      if (problem) return problem;
    }
    return null;
  }

  // Announced KXM points: after the declare's or dispatch's commit the operation stands; before the completion's, it does not.
  #killed(op: string, params: unknown, at: string): void {
    if (op === 'kxm.recover') {
      // Its count may or may not have been recorded (its state change is learnt from the next listing).
      const e = this.#find((params as OpParams<'kxm.recover'>).effectId);
      if (e && unsettled(e.state)) e.recoveries = { min: e.recoveries.min, max: e.recoveries.max + 1 };
      return;
    }
    if (at.endsWith('before-commit')) return;
    if (op === 'kxm.declare') {
      const p = params as OpParams<'kxm.declare'>;
      this.#add(p, null, null, expectedClass(p.registry, p.toolId, p.declaredClass).effectClass);
    } else if (op === 'kxm.dispatch') {
      const p = params as OpParams<'kxm.dispatch'>;
      const e = this.#find(p.effectId);
      if (e && e.state === 'intent') {
        const { expired, fenced } = this.#fence(e, p.now);
        e.state = this.#cancelled.has(e.runId) ? 'cancelled' : expired || fenced ? 'not_started' : 'dispatched';
      }
    }
  }

  #find(id: string): KEffect | undefined {
    return this.#effects.find((e) => e.id === id);
  }
}

function unsettled(state: KxmEffectState): boolean {
  return state === 'dispatched' || state === 'blocked_uncertain';
}

function fail(clause: Failure['clause'], what: string, expected: unknown, observed: unknown): Failure {
  return { clause, what, expected, observed };
}
