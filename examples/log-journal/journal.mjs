// An effect journal on an append-only log file (no database): every write is one fsynced record, the log order
// decides between racing processes, and result bytes are erased in place once no row needs them.
// Run it: npx ejc run --impl examples/log-journal/journal.mjs
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { JournalError } from 'effect-journal-conformance/journal';
import { argsDigest, mappingDigest, sha256 } from './digest.mjs';
import { RecordLog } from './record-log.mjs';
import { identityOf, isUnresolved, Rows } from './rows.mjs';
import { judgeExisting, sessionDisclosures } from './decisions.mjs';

const LOG_FILE = 'effects.log';
const SWEEP_CHUNK = 3;
const CAPABILITIES = {
  crashPoints: ['prepare.before-commit', 'prepare.after-commit', 'settle.before-commit', 'settle.after-commit', 'run-sweep.before-commit', 'session-sweep.between-chunks', 'session-sweep.before-commit', 'session-sweep.after-commit', 'checkpoint.before'],
  faults: ['settle_write_fails', 'gate_read_fails', 'session_read_fails', 'sweep_fails_after_first_chunk'],
  // No tier 1/2 reconciler: tiers 1 and 2 are refused like tier 3, naming their tier (what the contract ships).
  tierMode: 'conservative',
  sessions: true,
  seeding: true,
  // A log has no outer transaction to refuse, and no SQLite WAL: those scenarios do not apply.
  outerTransactionProbe: false,
  sqliteWal: false,
  resolution: true,
  sweepChunkSize: SWEEP_CHUNK,
};

export function createJournal({ crashpoint }) {
  const faults = new Set();
  let log = null;
  let rows = null;
  let counter = 0;

  const opened = () => {
    if (!log) throw new JournalError('not_open', 'the journal has not been opened');
    return log;
  };
  // Applies every record other processes (and we) appended since the last read; returns the outcomes of ours by nonce.
  const catchUp = () => {
    const outcomes = new Map();
    for (const { record, span } of opened().tail()) outcomes.set(record.n, rows.apply(record, span));
    return outcomes;
  };
  // Appends records in one durable write and returns their outcomes, as the log order decided them.
  const commitAll = (records) => {
    const stamped = records.map((r) => ({ ...r, n: `${process.pid}.${++counter}.${randomBytes(4).toString('hex')}` }));
    opened().append(stamped);
    const outcomes = catchUp();
    return stamped.map((r) => {
      if (!outcomes.has(r.n)) throw new JournalError('internal', 'an appended record was not found in the log');
      return outcomes.get(r.n);
    });
  };
  const commit = (record) => commitAll([record])[0];
  const eraseDead = () => {
    opened().erase(rows.deadSpans.splice(0));
    return { checkpoint: 'complete' };
  };
  const row = (id) => rows.byId.get(id);

  return {
    name: 'ejc-log-journal',
    version: '0.1.0',
    capabilities: CAPABILITIES,
    open({ dir }) {
      if (log) throw new JournalError('internal', 'the journal is already open');
      log = new RecordLog(join(dir, LOG_FILE));
      rows = new Rows();
      catchUp();
      // Session rows never hold a result; a legacy writer's results are cleared, then their bytes erased (§11).
      const legacy = [...rows.byId.values()].filter((r) => r.scope.kind === 'session' && r.resultText !== null).map((r) => r.effectId);
      if (legacy.length > 0) commit({ t: 'clear', ids: legacy });
      eraseDead();
      return { files: [log.path] };
    },
    close() {
      log?.close();
      log = null;
    },
    prepare(p) {
      catchUp();
      const scope = p.correlation.kind === 'run' ? { kind: 'run', runId: p.correlation.runId, nodeId: p.correlation.nodeId } : { kind: 'session', sessionId: p.correlation.sessionId, turn: p.correlation.turn };
      const identity = identityOf(scope, p.slot, p.toolId);
      const digest = argsDigest(p.args, p.secretArgKeys);
      const mapping = p.correlation.kind === 'run' ? mappingDigest(p.outputMappingConfig) : null;
      const held = rows.holder.get(identity);
      if (held !== undefined) return judgeExisting(row(held), digest, mapping);
      // The target idempotency key is tier 1 only (§2), generated once and stored with the row.
      const key = p.tier === 1 ? `ik-${sha256(`${identity}#${rows.generations.get(identity) ?? 0}`).slice(0, 32)}` : null;
      const nodeAttempt = p.correlation.kind === 'run' ? p.correlation.attempt : null;
      crashpoint('prepare.before-commit');
      const outcome = commit({ t: 'prepare', scope, slot: p.slot, toolId: p.toolId, tier: p.tier, digest, mapping, key, attempt: { nodeAttempt, ...p.audit } });
      // Another process's prepare of this identity reached the log first: another attempt exists.
      if (!outcome.ok) return { verdict: 'refuse', code: 'duplicate_identity', effectId: outcome.holder, message: 'another writer prepared this identity first' };
      crashpoint('prepare.after-commit');
      return { verdict: 'proceed', effectId: outcome.id, idempotencyKey: key };
    },
    settle(p) {
      catchUp();
      const current = row(p.effectId);
      if (!current) throw new JournalError('settle_no_row', `no effect ${p.effectId}`);
      if (current.state !== 'prepared') throw new JournalError('settle_already_settled', `effect ${p.effectId} is already ${current.state}`);
      if (faults.has('settle_write_fails')) throw new JournalError('settle_write_failed', 'injected fault: the settle record could not be written');
      // A session row never holds a result; a run row keeps its recorded projections for replay (§4, §11).
      const keep = p.state === 'committed' && p.result !== null && current.scope.kind === 'run';
      crashpoint('settle.before-commit');
      const outcome = commit({ t: 'settle', id: p.effectId, state: p.state, ...(keep ? { r: JSON.stringify(p.result) } : {}) });
      if (!outcome.ok) throw new JournalError(outcome.code, `effect ${p.effectId} was settled by another writer first`);
      crashpoint('settle.after-commit');
      return { effectId: p.effectId, state: outcome.state };
    },
    gate({ scope }) {
      if (faults.has('gate_read_fails')) {
        return { decision: 'refuse', effects: [], refusal: { code: 'gate_read_failed', tier: null, effectIds: [], message: 'injected fault: the log could not be read; resuming is refused' } };
      }
      catchUp();
      return gateDecision([...rows.byId.values()].filter((r) => r.scope.kind === 'run' && r.scope.runId === scope.runId && r.scope.nodeId === scope.nodeId));
    },
    reconcile() {
      throw new JournalError('reconcile_invalid', 'this journal is conservative: there is no tier 1/2 reconciler');
    },
    resolve(p) {
      catchUp();
      const current = row(p.effectId);
      if (!current || !isUnresolved(current) || current.resolution !== null) throw new JournalError('resolve_invalid', `effect ${p.effectId} is not an unresolved row`);
      if (!commit({ t: 'resolve', id: p.effectId, decision: p.decision, actor: p.actor, at: new Date().toISOString() }).ok) {
        throw new JournalError('resolve_invalid', `effect ${p.effectId} was resolved by another writer first`);
      }
      return view(row(p.effectId));
    },
    runTerminal({ runId }) {
      crashpoint('run-sweep.before-commit');
      const { deleted } = commit({ t: 'run-sweep', runId });
      eraseDead();
      return { deleted };
    },
    sessionRead(p) {
      if (faults.has('session_read_fails')) throw new JournalError('session_read_failed', `injected fault: reading session ${p.sessionId} failed`);
      catchUp();
      const own = [...rows.byId.values()].filter((r) => r.scope.kind === 'session' && r.scope.sessionId === p.sessionId).sort((a, b) => a.scope.turn - b.scope.turn || a.slot - b.slot || Number(a.effectId) - Number(b.effectId));
      const captured = own.filter((r) => r.state === 'committed').map((r) => ({ effectId: r.effectId, sessionId: p.sessionId, turn: r.scope.turn, slot: r.slot, toolId: r.toolId, state: 'committed' }));
      return { effects: own.map(view), disclosures: sessionDisclosures(own, p.transcript), captured };
    },
    sessionSweep(p) {
      opened();
      const owned = p.captured.filter((c) => c.sessionId === p.sessionId);
      let deleted = 0;
      if (owned.length > 0) {
        // Chunk records take effect only with the commit record after them: a kill or failure between them deletes nothing.
        const tx = randomBytes(8).toString('hex');
        for (let i = 0; i < owned.length; i += SWEEP_CHUNK) {
          if (i > 0) {
            if (faults.has('sweep_fails_after_first_chunk')) throw new JournalError('sweep_failed', 'injected fault: the sweep failed after its first chunk; nothing was deleted');
            crashpoint('session-sweep.between-chunks');
          }
          commit({ t: 'sweep-chunk', tx, rows: owned.slice(i, i + SWEEP_CHUNK) });
        }
        crashpoint('session-sweep.before-commit');
        deleted = commit({ t: 'sweep-commit', tx, sessionId: p.sessionId }).deleted;
      }
      crashpoint('session-sweep.after-commit');
      return { deleted, ...eraseDead() };
    },
    checkpoint() {
      opened();
      crashpoint('checkpoint.before');
      catchUp();
      return eraseDead();
    },
    listEffects() {
      catchUp();
      return { effects: [...rows.byId.values()].sort((a, b) => Number(a.effectId) - Number(b.effectId)).map(view) };
    },
    files() {
      return { files: [opened().path] };
    },
    fault({ fault, enabled }) {
      if (!CAPABILITIES.faults.includes(fault)) throw new JournalError('unsupported', `fault ${fault} is not offered by this journal`);
      if (enabled) faults.add(fault);
      else faults.delete(fault);
    },
    seed({ rows: seeded }) {
      opened();
      const records = seeded.map((s) => ({ t: 'seed', scope: s.scope, slot: s.slot, toolId: s.toolId, tier: s.tier, state: s.state, digest: s.argsDigest, attempt: { nodeAttempt: s.scope.kind === 'run' ? 1 : null, providerAttempt: 0, callId: s.callId, ownerId: 'seed', generation: 0 }, ...(s.resultJson === null ? {} : { r: s.resultJson }) }));
      return { effectIds: commitAll(records).map((o) => (o.ok ? o.id : `refused:${o.holder}`)) };
    },
  };
}

// §4 over every row of the node, whatever its attempt.
function gateDecision(nodeRows) {
  const effects = nodeRows.sort((a, b) => a.slot - b.slot).map((r) => ({ effectId: r.effectId, slot: r.slot, toolId: r.toolId, tier: r.tier, state: r.state, action: gateAction(r), idempotencyKey: r.idempotencyKey }));
  const refused = effects.filter((e) => e.action === 'needs_attention');
  if (refused.length === 0) return { decision: 'pass', effects, refusal: null };
  const ids = refused.map((e) => e.effectId);
  return { decision: 'refuse', effects, refusal: { code: 'effect_needs_attention', tier: refused[0].tier, effectIds: ids, message: `effect(s) ${ids.join(', ')} need attention (tier ${refused[0].tier}: never retried without a reconciler)` } };
}

function gateAction(r) {
  if (r.state === 'committed' && r.resultText !== null) return 'replay';
  if (r.resolution?.decision === 'accepted') return 'none';
  if (r.resolution?.decision === 'discarded') return 'run_again';
  return 'needs_attention';
}

function view(r) {
  return { effectId: r.effectId, scope: r.scope, slot: r.slot, toolId: r.toolId, tier: r.tier, state: r.state, argsDigest: r.argsDigest, idempotencyKey: r.idempotencyKey, resultRetained: r.resultText !== null, resolution: r.resolution, attempt: r.attempt };
}
