// A catalogue of deliberately broken journals: the reference journal with one defect each, chosen by
// `--impl-option defect=<name>`. Each defect is a real bug a journal author could write; the test suite
// proves that some scenario catches every one of them, and that every scenario catches at least one.
import Database from 'better-sqlite3';
import { createReferenceJournal } from '../../dist/reference-impl/index.js';
import { JournalError } from '../../dist/harness/journal-interface.js';
import { writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ARTIFACT_DEFECTS } from './artifact-defects.mjs';

export const DEFECTS = {
  // KXM: the class the tool's own metadata declares is trusted over the registry's.
  'kxm-trusts-declared-class': (j) => ({
    'kxm.declare'(p) {
      if (!p.declaredClass) return j['kxm.declare'](p);
      const tools = { ...p.registry.tools, [p.toolId]: { class: p.declaredClass, receiptQuery: 'tool-metadata' } };
      return j['kxm.declare']({ ...p, registry: { ...p.registry, tools } });
    },
  }),
  // KXM: an intent without a dispatch mark is treated as uncertain instead of provably never started.
  'kxm-blocks-never-started': (j, ctx) => ({
    'kxm.recover'(p) {
      const r = j['kxm.recover'](p);
      if (r.decision !== 'start_planned_attempt') return r;
      ctx.db().prepare(`UPDATE kxm_effects SET state = 'blocked_uncertain', blocked_reason = 'lost acknowledgement' WHERE id = ?`).run(Number(p.effectId));
      return { ...r, decision: 'blocked_uncertain', state: 'blocked_uncertain' };
    },
  }),
  // KXM: a found receipt is not recorded; the action is repeated.
  'kxm-repeats-after-receipt': (j) => ({
    'kxm.recover'(p) {
      const receipt = p.observation.receipt.kind === 'found' ? { kind: 'absent' } : p.observation.receipt;
      return j['kxm.recover']({ ...p, observation: { ...p.observation, receipt } });
    },
  }),
  // KXM: the retry after proven absence uses a fresh idempotency key instead of the deterministic one.
  'kxm-retry-new-key': (j) => ({
    'kxm.recover'(p) {
      const r = j['kxm.recover'](p);
      return r.decision === 'retry_same_key' ? { ...r, idempotencyKey: `${r.idempotencyKey}-retry` } : r;
    },
  }),
  // KXM: an unavailable or ambiguous receipt query is read as proven absence, so the action is retried.
  'kxm-retries-on-ambiguous-query': (j) => ({
    'kxm.recover'(p) {
      const kind = p.observation.receipt.kind;
      const receipt = kind === 'unavailable' || kind === 'ambiguous' ? { kind: 'absent' } : p.observation.receipt;
      return j['kxm.recover']({ ...p, observation: { ...p.observation, receipt } });
    },
  }),
  // KXM: a replacement process is mistaken for the old one and the old attempt is reattached.
  'kxm-reattaches-replaced': (j) => ({
    'kxm.recover'(p) {
      const process = p.observation.process === 'replacement_exists' ? 'alive_same' : p.observation.process;
      return j['kxm.recover']({ ...p, observation: { ...p.observation, process } });
    },
  }),
  // KXM: a resolution is applied whatever evidence (or lack of it) came with it.
  'kxm-resolves-without-evidence': (j, ctx) => ({
    'kxm.resolve'(p) {
      const current = ctx.db().prepare('SELECT attempt_id FROM kxm_effects WHERE id = ?').get(Number(p.effectId))?.attempt_id;
      const newAttemptId = p.evidence.newAttemptId && p.evidence.newAttemptId !== current ? p.evidence.newAttemptId : `${current}-operator`;
      const evidence = {
        receiptId: p.evidence.receiptId ?? 'assumed',
        receiptAuthoritative: true,
        postconditionVerified: true,
        negativeQueryAuthoritative: true,
        compensationReceiptId: p.evidence.compensationReceiptId ?? 'assumed',
        workflowAuthorized: true,
        newAttemptId,
      };
      return j['kxm.resolve']({ ...p, reason: p.reason || 'operator', evidence });
    },
  }),
  // KXM: cancel marks the run cancelled even while an effect is unresolved.
  'kxm-cancels-with-unresolved': (j, ctx) => ({
    'kxm.cancel'(p) {
      const r = j['kxm.cancel'](p);
      if (r.state === 'cancelled') return r;
      ctx.db().prepare(`UPDATE kxm_runs SET state = 'cancelled' WHERE run_id = ?`).run(p.runId);
      return { ...r, state: 'cancelled', unresolvedEffectIds: [] };
    },
  }),
  // KXM: never-started intents count as unresolved, so such a run can never be cancelled.
  'kxm-cancel-blocks-on-intents': (j, ctx) => ({
    'kxm.cancel'(p) {
      const intents = ctx.db().prepare(`SELECT id FROM kxm_effects WHERE run_id = ? AND state = 'intent'`).all(p.runId).map((r) => String(r.id));
      const r = j['kxm.cancel'](p);
      if (intents.length === 0) return r;
      ctx.db().prepare(`UPDATE kxm_runs SET state = 'blocked_uncertain' WHERE run_id = ?`).run(p.runId);
      return { ...r, state: 'blocked_uncertain', unresolvedEffectIds: [...r.unresolvedEffectIds, ...intents] };
    },
  }),
  // KXM: the lease is checked neither at dispatch nor at recovery.
  'kxm-ignores-lease-expiry': (j) => ({
    'kxm.dispatch'(p) {
      return j['kxm.dispatch']({ ...p, now: -1 });
    },
    'kxm.recover'(p) {
      return j['kxm.recover']({ ...p, now: -1 });
    },
  }),
  // KXM: a lease that expired after dispatch is assumed to have rolled the action back; it starts again under a new lease.
  'kxm-assumes-rollback-on-lease-expiry': (j, ctx) => ({
    'kxm.recover'(p) {
      const row = ctx.db().prepare('SELECT state, lease_expires_at FROM kxm_effects WHERE id = ?').get(Number(p.effectId));
      if (row && row.state === 'dispatched' && row.lease_expires_at !== null && p.now >= row.lease_expires_at) {
        ctx.db().prepare(`UPDATE kxm_effects SET state = 'intent', lease_expires_at = NULL WHERE id = ?`).run(Number(p.effectId));
      }
      return j['kxm.recover'](p);
    },
  }),
  // KXM: the fencing token is recorded but never compared; only the clock fences a lease.
  'kxm-ignores-fencing-token': (j, ctx) => ({
    'kxm.dispatch'(p) {
      return withKxmRow(ctx, p.effectId, 'fencing_token', (row) => topToken(ctx, row), () => j['kxm.dispatch'](p));
    },
    'kxm.recover'(p) {
      return withKxmRow(ctx, p.effectId, 'fencing_token', (row) => topToken(ctx, row), () => j['kxm.recover'](p));
    },
  }),
  // KXM: a read-only call whose result was lost is blocked for a human instead of simply retried.
  'kxm-blocks-read-only-retry': (j, ctx) => ({
    'kxm.recover'(p) {
      const r = j['kxm.recover'](p);
      if (r.decision !== 'retry_bounded') return r;
      ctx.db().prepare(`UPDATE kxm_effects SET state = 'blocked_uncertain', blocked_reason = 'lost result' WHERE id = ?`).run(Number(p.effectId));
      return { ...r, decision: 'blocked_uncertain', state: 'blocked_uncertain' };
    },
  }),
  // KXM: every lost result is retried like a read, whatever the class: a non-idempotent or unknown effect runs twice.
  'kxm-retries-non-idempotent': (j, ctx) => ({
    'kxm.recover'(p) {
      const blind = (row) => (row.effect_class === 'unknown' || row.effect_class === 'external-non-idempotent' ? 'read-only' : row.effect_class);
      return withKxmRow(ctx, p.effectId, 'effect_class', blind, () => j['kxm.recover'](p));
    },
  }),
  // KXM: a workspace mutation whose result was lost is blindly re-applied instead of reconciled.
  'kxm-reapplies-workspace-mutation': (j, ctx) => ({
    'kxm.recover'(p) {
      const blind = (row) => (row.effect_class === 'workspace-mutation' ? 'read-only' : row.effect_class);
      return withKxmRow(ctx, p.effectId, 'effect_class', blind, () => j['kxm.recover'](p));
    },
  }),
  // KXM: a workspace mutation counts as done whenever its process ended, compared or not.
  'kxm-workspace-completes-unverified': (j) => ({
    'kxm.recover'(p) {
      if (p.observation.postcondition === undefined) return j['kxm.recover'](p);
      return j['kxm.recover']({ ...p, observation: { ...p.observation, postcondition: 'verified' } });
    },
  }),
  // KXM: a still-alive tool process is ignored; recovery treats it as ended and starts the effect again.
  'kxm-restarts-alive-attempt': (j) => ({
    'kxm.recover'(p) {
      const process = p.observation.process === 'alive_same' ? 'ended' : p.observation.process;
      return j['kxm.recover']({ ...p, observation: { ...p.observation, process } });
    },
  }),
  // Acknowledges the settle, writes it later: a kill after the ack loses the commit.
  'ack-settle-before-durable': (j) => ({
    settle(p) {
      setTimeout(() => j.settle(p), 2000).unref();
      return { effectId: p.effectId, state: p.state };
    },
  }),
  // Announces prepare.before-commit only after the row is committed.
  'prepare-commits-before-announcing': (j, ctx) => ({
    prepare(p) {
      ctx.silence.add('prepare.before-commit');
      const v = j.prepare(p);
      ctx.silence.delete('prepare.before-commit');
      ctx.crashpoint('prepare.before-commit');
      return v;
    },
  }),
  // The gate only looks at unresolved rows: a committed row without a retained result waves the node through.
  'gate-only-unresolved': (j, ctx) => ({
    gate(p) {
      const d = j.gate(p);
      if (d.decision !== 'refuse' || !d.refusal) return d;
      const rows = ctx.rows().filter((r) => d.refusal.effectIds.includes(String(r.id)));
      return rows.every((r) => r.state === 'committed') ? { ...d, decision: 'pass', refusal: null } : d;
    },
  }),
  // A gate whose read failed answers pass.
  'gate-passes-on-read-failure': (j) => ({
    gate(p) {
      const d = j.gate(p);
      return d.refusal?.code === 'gate_read_failed' ? { decision: 'pass', effects: [], refusal: null } : d;
    },
  }),
  // The gate keys on the node attempt, so a resume (attempt reset to 1) misses rows of attempt 2.
  'gate-keys-on-attempt': (j, ctx) => ({
    gate(p) {
      const d = j.gate(p);
      const attempt = p.attempt ?? 1;
      const keep = new Set(ctx.rows().filter((r) => r.node_attempt === attempt).map((r) => String(r.id)));
      const effects = d.effects.filter((e) => keep.has(e.effectId));
      return effects.some((e) => e.action === 'needs_attention') ? { ...d, effects } : { decision: 'pass', effects, refusal: null };
    },
  }),
  // A committed row wins: any committed, retained row in the node passes the gate.
  'gate-committed-wins': (j) => ({
    gate(p) {
      const d = j.gate(p);
      return d.effects.some((e) => e.action === 'replay') ? { ...d, decision: 'pass', refusal: null } : d;
    },
  }),
  // Unresolved tier-3 rows are "retried": the gate clears them and lets the node run again.
  'retries-after-ambiguous': (j, ctx) => ({
    gate(p) {
      const d = j.gate(p);
      if (d.decision !== 'refuse' || !d.refusal) return d;
      ctx.db().prepare(`DELETE FROM run_effects WHERE id IN (${d.refusal.effectIds.map(() => '?').join(',')})`).run(...d.refusal.effectIds.map(Number));
      return { decision: 'pass', effects: d.effects.map((e) => ({ ...e, action: 'run_again' })), refusal: null };
    },
  }),
  // Conservative journal that lets tiers 1/2 through without a reconciler.
  'tiers-proceed-unreconciled': (j) => ({
    gate(p) {
      const d = j.gate(p);
      return d.refusal && d.refusal.tier !== 3 ? { ...d, decision: 'pass', refusal: null } : d;
    },
  }),
  // The reconciler reports success and records nothing.
  'reconcile-records-nothing': () => ({
    reconcile(p) {
      return { effectId: p.effectId, state: 'committed', execute: null };
    },
  }),
  // The args digest ignores the arguments: a changed question replays the old answer.
  'replays-changed-args': (j) => ({
    prepare(p) {
      return j.prepare({ ...p, args: {} });
    },
  }),
  // Secrets are hashed too: a rotated token refuses a legitimate replay.
  'digest-includes-secrets': (j) => ({
    prepare(p) {
      const secrets = p.secretArgKeys.map((k) => p.args[k] ?? null);
      return j.prepare({ ...p, args: { ...p.args, secretFingerprint: Buffer.from(JSON.stringify(secrets)).toString('hex') } });
    },
  }),
  // The output-mapping configuration is not part of the comparison.
  'ignores-output-mapping': (j) => ({
    prepare(p) {
      const { outputMappingConfig: _ignored, ...rest } = p;
      return j.prepare(rest);
    },
  }),
  // The replay re-derives projections from the bounded preview instead of returning the recorded ones.
  'replay-rederives': (j) => ({
    prepare(p) {
      const v = j.prepare(p);
      if (v.verdict !== 'replay') return v;
      const r = v.result;
      return { ...v, result: { ...r, truncated: false, outputMappingResult: r.modelValue } };
    },
  }),
  // Two prepares of one identity both proceed.
  'double-prepare': (j, ctx) => ({
    prepare(p) {
      const v = j.prepare(p);
      if (v.verdict === 'refuse' && v.code === 'duplicate_identity' && v.effectId) return { verdict: 'proceed', effectId: v.effectId, idempotencyKey: 'dup' };
      return v;
    },
  }),
  // A session prepare of a committed identity replays.
  'session-replays': (j) => ({
    prepare(p) {
      const v = j.prepare(p);
      if (v.verdict === 'refuse' && p.correlation.kind === 'session' && v.effectId) {
        return { verdict: 'replay', effectId: v.effectId, result: { modelValue: '', truncated: false, summary: '', outputMappingResult: null } };
      }
      return v;
    },
  }),
  // Session rows keep the result the engine offered.
  'session-keeps-result': (j, ctx) => ({
    settle(p) {
      const out = j.settle(p);
      if (p.state === 'committed' && p.result) ctx.db().prepare(`UPDATE run_effects SET result_json = ? WHERE id = ? AND scope_kind = 'session'`).run(JSON.stringify(p.result), Number(p.effectId));
      return out;
    },
  }),
  // Settle of an already-settled row succeeds quietly.
  'settle-idempotent': (j) => ({
    settle(p) {
      try {
        return j.settle(p);
      } catch (err) {
        if (err?.code === 'settle_already_settled' || err?.code === 'settle_no_row') return { effectId: p.effectId, state: 'committed' };
        throw err;
      }
    },
  }),
  // The resolution is acknowledged and never written.
  'resolution-not-recorded': (j, ctx) => ({
    resolve(p) {
      const row = j.listEffects().effects.find((e) => e.effectId === p.effectId);
      if (!row) throw new JournalError('resolve_invalid', 'no row');
      return { ...row, resolution: { decision: p.decision, actor: p.actor, at: new Date().toISOString() } };
    },
  }),
  // The gate matches run ids by prefix (LIKE 'r1%'), so r1's rows leak into r10's gate.
  'scope-prefix-match': (j, ctx) => ({
    gate(p) {
      const d = j.gate(p);
      const leaked = ctx
        .db()
        .prepare(`SELECT id, tier FROM run_effects WHERE scope_kind = 'run' AND ? LIKE run_id || '%' AND state != 'committed'`)
        .all(p.scope.runId);
      if (leaked.length === 0 || d.decision === 'refuse') return d;
      return { ...d, decision: 'refuse', refusal: { code: 'effect_needs_attention', tier: 3, effectIds: leaked.map((r) => String(r.id)), message: 'leaked' } };
    },
  }),
  // The terminal sweep of a run deletes its unresolved rows too.
  'terminal-sweeps-everything': (j, ctx) => ({
    runTerminal(p) {
      const out = j.runTerminal(p);
      const extra = ctx.db().prepare(`DELETE FROM run_effects WHERE scope_kind = 'run' AND run_id = ?`).run(p.runId).changes;
      return { deleted: out.deleted + extra };
    },
  }),
  // Committed rows are swept as soon as they settle, while the run is still resumable.
  'sweeps-resumable-run': (j, ctx) => ({
    settle(p) {
      const out = j.settle(p);
      const row = ctx.rows().find((r) => String(r.id) === p.effectId);
      if (row && row.scope_kind === 'run' && out.state === 'committed') j.runTerminal({ runId: row.run_id });
      return out;
    },
  }),
  // The terminal sweep commits row by row (allowed) but announces run-sweep.before-commit after a delete it already
  // committed, so a kill at the point it named "before their commit" leaves half the rows.
  'terminal-sweep-not-atomic': (j, ctx) => ({
    runTerminal(p) {
      const ids = ctx.rows().filter((r) => r.scope_kind === 'run' && r.run_id === p.runId && r.state === 'committed').map((r) => r.id);
      for (const id of ids) {
        ctx.db().prepare('DELETE FROM run_effects WHERE id = ?').run(id);
        ctx.crashpoint('run-sweep.before-commit');
      }
      return { deleted: ids.length };
    },
  }),
  // The session sweep deletes every row of the session, unresolved ones included.
  'session-sweeps-unresolved': (j, ctx) => ({
    sessionSweep(p) {
      const out = j.sessionSweep(p);
      const extra = ctx.db().prepare(`DELETE FROM run_effects WHERE scope_kind = 'session' AND session_id = ?`).run(p.sessionId).changes;
      return { ...out, deleted: out.deleted + extra };
    },
  }),
  // The session sweep deletes every committed row of the session, not just the captured ones.
  'sweep-by-session': (j, ctx) => ({
    sessionSweep(p) {
      const out = j.sessionSweep(p);
      const extra = ctx.db().prepare(`DELETE FROM run_effects WHERE scope_kind = 'session' AND session_id = ? AND state = 'committed'`).run(p.sessionId).changes;
      return { ...out, deleted: out.deleted + extra };
    },
  }),
  // The session sweep deletes captured ids without re-checking address, state or session.
  'sweep-by-id-only': (j, ctx) => ({
    sessionSweep(p) {
      if (p.insideOuterTransaction) return j.sessionSweep(p);
      const del = ctx.db().prepare('DELETE FROM run_effects WHERE id = ?');
      const deleted = p.captured.reduce((n, c) => n + del.run(Number(c.effectId)).changes, 0);
      return { deleted, checkpoint: j.checkpoint().checkpoint };
    },
  }),
  // The session sweep commits chunk by chunk: a failure or a kill between chunks leaves a partial sweep.
  'sweep-not-atomic': (j, ctx) => ({
    sessionSweep(p) {
      if (p.insideOuterTransaction) return j.sessionSweep(p);
      const del = ctx.db().prepare(`DELETE FROM run_effects WHERE id = ? AND state = 'committed'`);
      let deleted = 0;
      for (const [i, c] of p.captured.entries()) {
        if (i > 0) {
          if (ctx.faults.has('sweep_fails_after_first_chunk')) throw new JournalError('sweep_failed', 'injected failure after the first chunk');
          ctx.crashpoint('session-sweep.between-chunks');
        }
        deleted += del.run(Number(c.effectId)).changes;
      }
      return { deleted, checkpoint: j.checkpoint().checkpoint };
    },
    fault(p) {
      if (p.fault === 'sweep_fails_after_first_chunk') p.enabled ? ctx.faults.add(p.fault) : ctx.faults.delete(p.fault);
      return j.fault(p);
    },
  }),
  // A sweep inside an outer transaction goes ahead.
  'sweeps-inside-outer-transaction': (j) => ({
    sessionSweep(p) {
      const { insideOuterTransaction: _probe, ...rest } = p;
      return j.sessionSweep(rest);
    },
  }),
  // The session sweep never checkpoints: deleted bytes stay in the WAL.
  'skips-wal-checkpoint': (j, ctx) => ({
    sessionSweep(p) {
      if (p.insideOuterTransaction) return j.sessionSweep(p);
      const del = ctx.db().prepare(`DELETE FROM run_effects WHERE id = ? AND state = 'committed' AND session_id = ?`);
      const deleted = p.captured.reduce((n, c) => n + del.run(Number(c.effectId), p.sessionId).changes, 0);
      return { deleted, checkpoint: 'complete' };
    },
  }),
  // Every checkpoint claims complete, even with a reader holding the WAL.
  'checkpoint-always-complete': (j) => ({
    sessionSweep(p) {
      return { ...j.sessionSweep(p), checkpoint: 'complete' };
    },
    checkpoint() {
      j.checkpoint();
      return { checkpoint: 'complete' };
    },
  }),
  // Seeded legacy rows are also copied into a side table that is never cleared.
  'keeps-legacy-copy': (j, ctx) => ({
    seed(p) {
      const out = j.seed(p);
      ctx.db().exec('CREATE TABLE IF NOT EXISTS legacy_copy (result_json TEXT)');
      for (const r of p.rows) ctx.db().prepare('INSERT INTO legacy_copy VALUES (?)').run(r.resultJson);
      return out;
    },
  }),
  // The prepare commits its row first and its idempotency key in a second transaction: a torn prepare.
  'torn-prepare': (j, ctx) => ({
    prepare(p) {
      const v = j.prepare(p);
      if (v.verdict !== 'proceed') return v;
      ctx.db().prepare('UPDATE run_effects SET idempotency_key = NULL WHERE id = ?').run(Number(v.effectId));
      ctx.db().prepare('UPDATE run_effects SET idempotency_key = ? WHERE id = ?').run(v.idempotencyKey, Number(v.effectId));
      return v;
    },
  }),
  // The settle commits the state first and the result in a second transaction: a torn settle.
  'torn-settle': (j, ctx) => ({
    settle(p) {
      if (p.state !== 'committed' || !p.result) return j.settle(p);
      const out = j.settle({ ...p, result: null });
      ctx.db().prepare('UPDATE run_effects SET result_json = ? WHERE id = ?').run(JSON.stringify(p.result), Number(p.effectId));
      return out;
    },
  }),
  // Raw arguments are kept for debugging.
  'stores-raw-args': (j, ctx) => ({
    prepare(p) {
      const v = j.prepare(p);
      ctx.db().exec('CREATE TABLE IF NOT EXISTS debug_args (args TEXT)');
      ctx.db().prepare('INSERT INTO debug_args VALUES (?)').run(JSON.stringify(p.args));
      return v;
    },
  }),
  // The join ignores the transcript's turn status: an errored or aborted turn counts as completed.
  'join-ignores-status': (j) => ({
    sessionRead(p) {
      return j.sessionRead({ ...p, transcript: p.transcript.map((t) => ({ ...t, status: 'completed' })) });
    },
  }),
  // The join only looks at the latest transcript turn (a completed-turn window instead of all history).
  'join-latest-turn-only': (j) => ({
    sessionRead(p) {
      return j.sessionRead({ ...p, transcript: p.transcript.slice(-1) });
    },
  }),
  // The join trusts the first match: duplicate ids and mismatched names pass as attributed.
  'lenient-attribution': (j, ctx) => ({
    sessionRead(p) {
      const seen = new Set();
      const transcript = p.transcript.map((t) => ({
        ...t,
        calls: t.calls.filter((c) => !seen.has(c.callId) && seen.add(c.callId)).map((c) => {
          const row = ctx.rows().find((r) => r.call_id === c.callId);
          return row ? { ...c, toolName: row.tool_id } : c;
        }),
      }));
      return j.sessionRead({ ...p, transcript });
    },
  }),
  // Committed-incomplete and legacy disclosures are dropped; only unresolved rows are shown.
  'drops-committed-disclosures': (j) => ({
    sessionRead(p) {
      const out = j.sessionRead(p);
      return { ...out, disclosures: out.disclosures.filter((d) => d.reason === 'unresolved') };
    },
  }),
  // The disclosure read deletes the committed rows it reports ("read once").
  'read-consumes-rows': (j, ctx) => ({
    sessionRead(p) {
      ctx.db().prepare(`DELETE FROM run_effects WHERE scope_kind = 'session' AND session_id = ? AND state = 'committed'`).run(p.sessionId);
      return j.sessionRead(p);
    },
  }),
  // S8e: a prepare of a committed identity forgets the record and proceeds under a fresh key, so an idempotent replay writes again.
  'replay-proceeds-fresh-key': (j, ctx) => ({
    prepare(p) {
      const v = j.prepare(p);
      if (v.verdict !== 'replay') return v;
      ctx.db().prepare('DELETE FROM run_effects WHERE id = ?').run(Number(v.effectId));
      return j.prepare(p);
    },
  }),
  // S8e: the gate hands back a rotated idempotency key, so a tier-1 retry is not deduplicated by the target.
  'retry-key-rotates': (j) => ({
    gate(p) {
      const d = j.gate(p);
      return { ...d, effects: d.effects.map((e) => (e.action === 'retry_with_key' && e.idempotencyKey ? { ...e, idempotencyKey: `${e.idempotencyKey}-rotated` } : e)) };
    },
  }),
  // S8e: an ambiguous settle is recorded as a commit without a result: the unknown is no longer visible as unknown.
  'ambiguous-settles-committed': (j) => ({
    settle(p) {
      return p.state === 'ambiguous' ? j.settle({ effectId: p.effectId, state: 'committed', result: null }) : j.settle(p);
    },
  }),
};

/** Implementations that misbehave as processes: the harness must call these trials inconclusive, never passed. */
export const MISBEHAVIOURS = {
  // The process exits by itself in the middle of a settle.
  'exits-during-settle': () => ({
    settle() {
      process.exit(0);
    },
  }),
  // The gate never answers.
  'hangs-during-gate': () => ({
    gate() {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    },
  }),
  // The prepare answers with a line that is not JSON.
  'garbage-during-prepare': (j) => ({
    prepare(p) {
      writeSync(1, 'this is not json\n');
      return j.prepare(p);
    },
  }),
  // Claims its crash points in hello but never stops at them.
  'never-announces-crash-points': (j, ctx) => {
    ctx.silenceAll = true;
    return {};
  },
};

/** The adapter: the reference journal with the defect named by `--impl-option defect=…`. */
export function createJournal(options) {
  const name = options.options.defect;
  const defect = DEFECTS[name] ?? MISBEHAVIOURS[name] ?? ARTIFACT_DEFECTS[name];
  if (!defect) throw new JournalError('unsupported', `unknown defect ${JSON.stringify(name)}; known: ${Object.keys(DEFECTS).join(', ')}`);
  const silence = new Set();
  let db = null;
  let path = null;
  const ctx = {
    silence,
    faults: new Set(),
    crashpoint: (point) => options.crashpoint(point),
    db: () => (db ??= openSide(path)),
    rows: () => ctx.db().prepare('SELECT * FROM run_effects').all(),
    dir: () => dirname(path),
    options: options.options,
  };
  const reference = createReferenceJournal({
    crashpoint: (point) => (ctx.silenceAll || silence.has(point) ? undefined : options.crashpoint(point)),
    options: options.options,
    tierMode: options.options.tierMode ?? 'reconciling',
  });
  const overrides = defect(reference, ctx);
  const journal = Object.create(null);
  for (const key of ['open', 'close', 'prepare', 'settle', 'gate', 'reconcile', 'resolve', 'runTerminal', 'sessionRead', 'sessionSweep', 'checkpoint', 'listEffects', 'files', 'fault', 'seed']) {
    journal[key] = overrides[key] ?? ((p) => reference[key](p));
  }
  for (const key of ['kxm.declare', 'kxm.dispatch', 'kxm.complete', 'kxm.recover', 'kxm.resolve', 'kxm.cancel', 'kxm.list']) {
    journal[key] = overrides[key] ?? ((p) => reference[key](p));
  }
  const open = journal.open;
  journal.open = (p) => {
    const out = open(p);
    path = out.files[0];
    return out;
  };
  const close = journal.close;
  journal.close = () => {
    db?.close();
    db = null;
    return close();
  };
  return Object.assign(journal, { name: `broken:${name}`, version: reference.version, capabilities: reference.capabilities });
}

function openSide(path) {
  const db = new Database(path);
  db.pragma('busy_timeout = 5000');
  return db;
}

// KXM defects: runs `fn` with one column of the effect's row temporarily rewritten, then restores it.
function withKxmRow(ctx, effectId, column, value, fn) {
  const db = ctx.db();
  const row = db.prepare('SELECT * FROM kxm_effects WHERE id = ?').get(Number(effectId));
  if (!row) return fn();
  db.prepare(`UPDATE kxm_effects SET ${column} = ? WHERE id = ?`).run(value(row), row.id);
  try {
    return fn();
  } finally {
    db.prepare(`UPDATE kxm_effects SET ${column} = ? WHERE id = ?`).run(row[column], row.id);
  }
}

function topToken(ctx, row) {
  if (row.lease_id === null) return row.fencing_token;
  return ctx.db().prepare('SELECT max(fencing_token) AS top FROM kxm_effects WHERE lease_id = ?').get(row.lease_id).top;
}
