// KXM written from scratch beside the from-scratch file journal: the whole KXM state (effects, runs, audit) is one JSON
// document replaced atomically (temp file, fsync, rename, fsync of the directory) on every change, so each operation
// commits at its rename. `createKxmFilesJournal(options, bugs)` switches an author's bugs on; `createJournal` is correct.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { JournalError } from '../../../dist/harness/journal-interface.js';
import { createFilesJournal } from './core-files-journal.mjs';

const KXM_POINTS = ['kxm.declare.after-commit', 'kxm.dispatch.after-commit', 'kxm.complete.before-commit'];
const CAUTION = ['read-only', 'workspace-mutation', 'external-idempotent', 'receipt-queryable', 'unknown', 'external-non-idempotent'];
const TIER = { 'external-idempotent': 1, 'receipt-queryable': 2, unknown: 3, 'external-non-idempotent': 3 };
const RESOLUTIONS = ['mark_completed', 'confirm_absent_retry', 'compensate_retry', 'mark_failed'];

export function createJournal(options) {
  return createKxmFilesJournal(options, {});
}

/** The file journal with KXM; `bugs` names the author's mistakes (none: conformant). */
export function createKxmFilesJournal(options, bugs, name = 'kxm-files-journal') {
  const core = createFilesJournal(options, {}, name);
  let path = null;
  const load = () => {
    if (path === null) fail('not_open', 'the journal has not been opened');
    return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : { next: 1, effects: [], runs: {}, audit: [] };
  };
  // Writes the new state beside the old one; the returned function makes it the journal's (the commit).
  const stage = (state) => {
    const temp = `${path}.tmp-${randomBytes(6).toString('hex')}`;
    const fd = openSync(temp, 'w');
    try {
      writeSync(fd, JSON.stringify(state));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return () => {
      renameSync(temp, path);
      const d = openSync(join(path, '..'), 'r');
      try {
        fsyncSync(d);
      } finally {
        closeSync(d);
      }
    };
  };
  const save = (state) => stage(state)();
  const find = (state, effectId) => state.effects.find((e) => e.effectId === effectId) ?? fail('kxm_invalid', `no kxm effect ${JSON.stringify(effectId)}`);
  const run = (state, runId) => state.runs[runId] ?? { state: 'active', cancelRequested: false };
  const view = (state, e) => ({
    ...e,
    tier: TIER[e.effectClass] ?? null,
    blocked: e.state === 'blocked_uncertain' ? { reason: e.blockedReason, permittedResolutions: [...RESOLUTIONS] } : null,
    audit: state.audit.filter((a) => a.effectId === e.effectId).map(({ effectId: _, ...a }) => a),
    blockedReason: undefined,
  });
  const clean = (v) => JSON.parse(JSON.stringify(v));
  const leaseRefusal = (state, e, now) => {
    if (e.lease === null) return null;
    if (now >= e.lease.expiresAt) return 'lease_expired';
    const top = Math.max(...state.effects.filter((x) => x.lease?.leaseId === e.lease.leaseId).map((x) => x.lease.fencingToken));
    return top > e.lease.fencingToken ? 'lease_fenced' : null;
  };

  const kxm = {
    'kxm.declare'(p) {
      const state = load();
      if (run(state, p.runId).cancelRequested) return { verdict: 'refused', code: 'run_cancelled', effectId: null, message: `run ${p.runId} is being cancelled` };
      const prior = state.effects.find((e) => e.runId === p.runId && e.assignmentId === p.assignmentId && e.slot === p.slot);
      if (prior) return { verdict: 'refused', code: 'duplicate_identity', effectId: prior.effectId, message: 'this assignment effect already has an intent' };
      const entry = Object.hasOwn(p.registry.tools, p.toolId) ? p.registry.tools[p.toolId] : null;
      const base = entry?.class ?? 'unknown';
      const declared = p.declaredClass ?? null;
      const accepted = declared === null || CAUTION.indexOf(declared) >= CAUTION.indexOf(base);
      const effect = {
        effectId: `k${state.next}`, runId: p.runId, stepId: p.stepId, assignmentId: p.assignmentId, attemptId: p.attemptId, slot: p.slot, toolId: p.toolId,
        effectClass: accepted && declared !== null ? declared : base, declaredClass: declared, declarationAccepted: accepted,
        registryRevision: p.registry.revision, receiptQuery: entry?.receiptQuery ?? null,
        idempotencyKey: `kf-${createHash('sha256').update(JSON.stringify([p.runId, p.assignmentId, p.slot, p.toolId])).digest('hex').slice(0, 32)}`,
        state: 'intent', lease: p.lease ?? null, receipt: null, blockedReason: '', reconciliationAttempts: 0,
      };
      save({ ...state, next: state.next + 1, effects: [...state.effects, effect] });
      options.crashpoint('kxm.declare.after-commit');
      return { verdict: 'recorded', effect: clean(view(load(), effect)) };
    },
    'kxm.dispatch'(p) {
      const state = load();
      const e = find(state, p.effectId);
      if (e.state !== 'intent') fail('kxm_invalid', `effect ${p.effectId} is ${e.state}, not an undispatched intent`);
      if (e.attemptId !== p.attemptId) fail('kxm_invalid', `effect ${p.effectId} plans attempt ${e.attemptId}, not ${p.attemptId}`);
      // The author's shortcut: cancel already moves every intent to cancelled and declare refuses after it.
      const reason = !bugs.dispatchIgnoresCancel && run(state, e.runId).cancelRequested ? 'run_cancelled' : leaseRefusal(state, e, p.now);
      e.state = reason === 'run_cancelled' ? 'cancelled' : reason === null ? 'dispatched' : 'not_started';
      save(state);
      options.crashpoint('kxm.dispatch.after-commit');
      return { effectId: e.effectId, started: reason === null, reason, state: e.state, idempotencyKey: e.idempotencyKey };
    },
    'kxm.complete'(p) {
      const state = load();
      const e = find(state, p.effectId);
      if (e.state !== 'dispatched') fail('kxm_invalid', `effect ${p.effectId} is ${e.state}, not dispatched`);
      if (e.attemptId !== p.attemptId) fail('kxm_invalid', `effect ${p.effectId} runs attempt ${e.attemptId}, not ${p.attemptId}`);
      Object.assign(e, { state: 'completed', receipt: { receiptId: p.receiptId, source: 'completion' } });
      const commit = stage(state);
      options.crashpoint('kxm.complete.before-commit');
      commit();
      return clean(view(state, e));
    },
    'kxm.recover'(p) {
      const state = load();
      const e = find(state, p.effectId);
      const plan = recoveryPlan(state, e, p);
      if (e.state === 'dispatched' || e.state === 'blocked_uncertain') e.reconciliationAttempts += 1;
      if (plan.state === 'blocked_uncertain' && e.state !== 'blocked_uncertain') e.blockedReason = plan.reason;
      if (plan.receiptId) e.receipt = { receiptId: plan.receiptId, source: 'query' };
      e.state = plan.state;
      save(state);
      return { effectId: e.effectId, decision: plan.decision, state: e.state, attemptId: e.attemptId, idempotencyKey: e.idempotencyKey, reason: plan.reason };
    },
    'kxm.resolve'(p) {
      const state = load();
      const e = find(state, p.effectId);
      if (e.state !== 'blocked_uncertain') fail('kxm_invalid', `effect ${p.effectId} is ${e.state}, not blocked_uncertain`);
      const missing = missingEvidence(p, e.attemptId);
      if (missing) fail('kxm_evidence_missing', `${p.action} refused: ${missing}`);
      const x = p.evidence;
      if (p.action === 'mark_completed') Object.assign(e, { state: 'completed', receipt: x.receiptId ? { receiptId: x.receiptId, source: 'resolution' } : e.receipt });
      else if (p.action === 'mark_failed') e.state = 'failed';
      else Object.assign(e, { state: 'intent', attemptId: x.newAttemptId });
      e.blockedReason = '';
      const references = [x.receiptId, x.compensationReceiptId, x.newAttemptId].filter((r) => r !== undefined);
      state.audit.push({ effectId: e.effectId, action: p.action, actor: p.actor, reason: p.reason, references, result: e.state });
      save(state);
      return clean(view(state, e));
    },
    'kxm.cancel'(p) {
      if (p.reason.trim() === '') fail('kxm_evidence_missing', 'cancel refused: an audited cancellation needs a reason');
      const state = load();
      const mine = state.effects.filter((e) => e.runId === p.runId);
      const cancelled = mine.filter((e) => e.state === 'intent');
      for (const e of cancelled) e.state = 'cancelled';
      // The author's slip: only what recovery has already blocked counts as unresolved, not an effect still in flight.
      const open = bugs.cancelCountsBlockedOnly ? ['blocked_uncertain'] : ['dispatched', 'blocked_uncertain'];
      const unresolved = mine.filter((e) => open.includes(e.state)).map((e) => e.effectId);
      const runState = unresolved.length === 0 ? 'cancelled' : 'blocked_uncertain';
      state.runs[p.runId] = { state: runState, cancelRequested: true };
      state.audit.push({ effectId: null, action: 'cancel', actor: p.actor, reason: p.reason, references: unresolved, result: runState });
      save(state);
      return { runId: p.runId, state: runState, unresolvedEffectIds: unresolved, cancelledEffectIds: cancelled.map((e) => e.effectId) };
    },
    'kxm.list'(p) {
      const state = load();
      return { run: { runId: p.runId, ...run(state, p.runId) }, effects: state.effects.filter((e) => e.runId === p.runId).map((e) => clean(view(state, e))) };
    },
  };

  return {
    ...core,
    capabilities: { ...core.capabilities, crashPoints: [...core.capabilities.crashPoints, ...KXM_POINTS], kxm: true },
    open(p) {
      const opened = core.open(p);
      path = join(p.dir, 'kxm.json');
      return opened;
    },
    close() {
      path = null;
      core.close();
    },
    ...kxm,
  };
}

// The crash matrix: the last durable state, what the engine observed now, and the lease.
function recoveryPlan(state, e, p) {
  const keep = (decision, reason) => ({ decision, state: e.state, reason, receiptId: null });
  const block = (reason) => ({ decision: 'blocked_uncertain', state: 'blocked_uncertain', reason, receiptId: null });
  if (['completed', 'failed', 'cancelled', 'not_started'].includes(e.state)) return keep('none', `effect is ${e.state}`);
  if (e.state === 'blocked_uncertain') return keep('blocked_uncertain', e.blockedReason);
  if (e.state === 'intent') {
    if (e.lease !== null && p.now >= e.lease.expiresAt) return { decision: 'lease_expired', state: 'not_started', reason: 'lease expired before dispatch', receiptId: null };
    const top = e.lease === null ? null : Math.max(...state.effects.filter((x) => x.lease?.leaseId === e.lease.leaseId).map((x) => x.lease.fencingToken));
    if (top !== null && top > e.lease.fencingToken) return { decision: 'lease_fenced', state: 'not_started', reason: 'lease re-granted under a higher token', receiptId: null };
    return keep('start_planned_attempt', 'no dispatch mark: the process never started');
  }
  const o = p.observation;
  if (o.process === 'alive_same') return keep('reattach', 'the same process is alive');
  if (e.effectClass === 'read-only') return keep('retry_bounded', 'a read is retried');
  if (e.effectClass === 'workspace-mutation') return o.postcondition === 'verified' ? { decision: 'record_postcondition', state: 'completed', reason: 'postcondition verified', receiptId: null } : block('workspace postcondition not verified');
  if (e.effectClass !== 'external-idempotent' && e.effectClass !== 'receipt-queryable') return block(`${e.effectClass} effect lost its acknowledgement`);
  if (o.receipt.kind === 'found') return { decision: 'record_receipt', state: 'completed', reason: 'receipt found', receiptId: o.receipt.receiptId };
  if (o.receipt.kind === 'absent' && o.process !== 'replacement_exists') return keep('retry_same_key', 'receipt proven absent');
  return block(`receipt query ${o.receipt.kind}${o.process === 'replacement_exists' ? ' and a replacement process exists' : ''}`);
}

function missingEvidence(p, attempt) {
  const x = p.evidence;
  if (p.reason.trim() === '') return 'a resolution needs a reason';
  const fresh = x.newAttemptId !== undefined && x.newAttemptId !== attempt;
  if (p.action === 'mark_completed') return (x.receiptId !== undefined && x.receiptAuthoritative === true) || x.postconditionVerified === true ? null : 'needs an authoritative receipt or a verified postcondition';
  if (p.action === 'confirm_absent_retry') return x.negativeQueryAuthoritative !== true ? 'needs an authoritative negative query' : fresh ? null : 'needs a new attemptId';
  if (p.action === 'compensate_retry') return x.compensationReceiptId === undefined ? 'needs a compensation receipt' : x.workflowAuthorized !== true ? 'needs workflow authorization' : fresh ? null : 'needs a new attemptId';
  return null;
}

function fail(code, message) {
  throw new JournalError(code, message);
}
