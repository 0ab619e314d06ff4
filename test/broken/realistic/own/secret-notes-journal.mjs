// A journal written from scratch by the secrets red team: one SQLite table of effects with an operator's note per row,
// its own redactor (secret-redact.mjs) and canonical JSON, run effects only, conservative tiers, operator resolution.
// `slips` turns on one author's mistake (none: it is meant to pass every scenario it can run).
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { makeRedactor } from './secret-redact.mjs';

class JournalError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'JournalError';
    this.code = code;
  }
}

const CAPABILITIES = { crashPoints: [], faults: [], tierMode: 'conservative', sessions: false, seeding: false, outerTransactionProbe: false, resolution: true };

/** Where the deepAuditLog slip appends: a state directory of its own, outside any journal directory, kept across opens. */
export const AUDIT_LOG = join(tmpdir(), 'ejc-secret-notes-journal', 'state', 'audit', 'calls', 'calls.log');

/** slips: { attentionNote?: true (the note of an unanswered call quotes its request), deepAuditLog?: true (every prepare is
 * appended to AUDIT_LOG with the request minus its declared secrets) } */
export function notesJournal(name, slips = {}) {
  const { redactArgs } = makeRedactor();
  const pending = new Map();
  let db = null;
  let file = null;
  const need = () => db ?? fail('not_open', 'open first');
  const tx = (fn) => {
    for (let i = 0; ; i++) {
      try {
        return need().transaction(fn).immediate();
      } catch (e) {
        if (!String(e?.code).startsWith('SQLITE_BUSY') || i > 50) throw e;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
      }
    }
  };
  const digest = (value) => `v5:${createHash('sha256').update(canonical(value), 'utf8').digest('hex')}`;
  const row = (id) => need().prepare('SELECT * FROM effects WHERE id = ?').get(Number(id)) ?? null;
  const view = (r) => ({
    effectId: String(r.id), scope: { kind: 'run', runId: r.run_id, nodeId: r.node_id }, slot: r.slot, toolId: r.tool_id, tier: r.tier, state: r.state,
    argsDigest: r.args_digest, idempotencyKey: r.ikey, resultRetained: r.result !== null, resolution: r.resolution === null ? null : JSON.parse(r.resolution), attempt: JSON.parse(r.audit),
  });
  const action = (r) => (r.state === 'committed' && r.result !== null ? 'replay' : r.resolution === null ? 'needs_attention' : JSON.parse(r.resolution).decision === 'accepted' ? 'none' : 'run_again');

  return {
    name: `realistic:${name}`,
    version: '1.0.0',
    capabilities: CAPABILITIES,
    open({ dir }) {
      mkdirSync(dir, { recursive: true });
      file = join(dir, 'effects.db');
      db = new Database(file);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('secure_delete = ON');
      db.pragma('busy_timeout = 5000');
      db.exec(`CREATE TABLE IF NOT EXISTS effects (id INTEGER PRIMARY KEY, run_id TEXT NOT NULL, node_id TEXT NOT NULL, slot INTEGER NOT NULL,
        tool_id TEXT NOT NULL, tier INTEGER NOT NULL, state TEXT NOT NULL, args_digest TEXT NOT NULL, mapping_digest TEXT NOT NULL,
        ikey TEXT, result TEXT, note TEXT, resolution TEXT, audit TEXT NOT NULL, UNIQUE (run_id, node_id, slot, tool_id))`);
      if (slips.deepAuditLog) mkdirSync(join(AUDIT_LOG, '..'), { recursive: true });
      return { files: [file, `${file}-wal`] };
    },
    close() {
      db?.close();
      db = null;
      return {};
    },
    prepare(p) {
      const c = p.correlation;
      if (c.kind !== 'run') fail('unsupported', 'params.correlation.kind: this journal has no sessions');
      const args = digest(redactArgs(p.args, p.secretArgKeys));
      const mapping = digest(p.outputMappingConfig === undefined ? { absent: true } : p.outputMappingConfig);
      const verdict = tx(() => {
        const old = need().prepare('SELECT * FROM effects WHERE run_id = ? AND node_id = ? AND slot = ? AND tool_id = ?').get(c.runId, c.nodeId, p.slot, p.toolId);
        if (old) {
          const refuse = (code, message) => ({ verdict: 'refuse', code, effectId: String(old.id), message });
          const resolution = old.resolution === null ? null : JSON.parse(old.resolution).decision;
          if (resolution !== 'discarded') {
            if (old.state !== 'committed') return refuse('duplicate_identity', `an unresolved (${old.state}) effect holds this identity`);
            if (old.args_digest !== args) return refuse('args_mismatch', 'the arguments differ from the recorded effect at this slot');
            if (old.mapping_digest !== mapping) return refuse('output_mapping_changed', 'the output-mapping configuration differs');
            if (old.result === null) return refuse('result_not_retained', 'the effect landed but no result was retained');
            return { verdict: 'replay', effectId: String(old.id), result: JSON.parse(old.result) };
          }
          need().prepare('DELETE FROM effects WHERE id = ?').run(old.id);
        }
        const ikey = p.tier === 1 ? `nk-${createHash('sha256').update(`${c.runId}/${c.nodeId}/${p.slot}/${p.toolId}/${Date.now()}`).digest('hex').slice(0, 32)}` : null;
        const info = need()
          .prepare('INSERT INTO effects (run_id, node_id, slot, tool_id, tier, state, args_digest, mapping_digest, ikey, audit) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
          .run(c.runId, c.nodeId, p.slot, p.toolId, p.tier, 'prepared', args, mapping, ikey, JSON.stringify({ nodeAttempt: c.attempt, ...p.audit }));
        return { verdict: 'proceed', effectId: String(info.lastInsertRowid), idempotencyKey: ikey };
      });
      if (verdict.verdict === 'proceed') {
        // What the operator's note names if the call never answers: the method and where it went.
        pending.set(verdict.effectId, slips.attentionNote ? `${p.args.method ?? p.toolId} ${p.args.url ?? ''}`.trim() : p.toolId);
        if (slips.deepAuditLog) appendFileSync(AUDIT_LOG, `${new Date().toISOString()} ${p.toolId} ${JSON.stringify(Object.fromEntries(Object.entries(p.args).filter(([k]) => !p.secretArgKeys.includes(k))))}\n`);
      }
      return verdict;
    },
    settle(p) {
      const r = row(p.effectId) ?? fail('settle_no_row', `no effect ${p.effectId}`);
      if (r.state !== 'prepared') fail('settle_already_settled', `effect ${p.effectId} is already ${r.state}`);
      const note = p.state === 'ambiguous' ? `${pending.get(p.effectId) ?? r.tool_id}: ${p.reason ?? 'no answer'}; check the target before resolving` : null;
      tx(() => need().prepare('UPDATE effects SET state = ?, result = ?, note = ? WHERE id = ?').run(p.state, p.state === 'committed' && p.result ? JSON.stringify(p.result) : null, note, r.id));
      pending.delete(p.effectId);
      return { effectId: p.effectId, state: p.state };
    },
    gate(p) {
      const mine = need().prepare('SELECT * FROM effects WHERE run_id = ? AND node_id = ? ORDER BY slot, id').all(p.scope.runId, p.scope.nodeId);
      const effects = mine.map((r) => ({ effectId: String(r.id), slot: r.slot, toolId: r.tool_id, tier: r.tier, state: r.state, action: action(r), idempotencyKey: r.ikey }));
      const blocked = effects.filter((e) => e.action === 'needs_attention');
      if (blocked.length === 0) return { decision: 'pass', effects, refusal: null };
      const ids = blocked.map((e) => e.effectId);
      return { decision: 'refuse', effects, refusal: { code: 'effect_needs_attention', tier: blocked[0].tier, effectIds: ids, message: `tier ${blocked[0].tier} effect(s) ${ids.join(', ')} need attention (no reconciler: every tier is refused like tier 3)` } };
    },
    reconcile() {
      fail('reconcile_invalid', 'this journal is conservative: there is no tier 1/2 reconciler');
    },
    resolve(p) {
      const r = row(p.effectId);
      if (!r || r.state === 'committed' || r.resolution !== null) fail('resolve_invalid', `effect ${p.effectId} is not an unresolved row`);
      tx(() => need().prepare('UPDATE effects SET resolution = ? WHERE id = ?').run(JSON.stringify({ decision: p.decision, actor: p.actor, at: new Date().toISOString() }), r.id));
      return view(row(p.effectId));
    },
    runTerminal(p) {
      const deleted = tx(() => need().prepare(`DELETE FROM effects WHERE run_id = ? AND state = 'committed'`).run(p.runId).changes);
      need().pragma('wal_checkpoint(TRUNCATE)');
      return { deleted };
    },
    sessionRead() {
      fail('unsupported', 'this journal has no sessions');
    },
    sessionSweep() {
      fail('unsupported', 'this journal has no sessions');
    },
    checkpoint() {
      const [r] = need().pragma('wal_checkpoint(TRUNCATE)');
      return { checkpoint: r.busy === 0 ? 'complete' : 'deferred' };
    },
    listEffects() {
      return { effects: need().prepare('SELECT * FROM effects ORDER BY id').all().map(view) };
    },
    files() {
      return { files: [file, `${file}-wal`] };
    },
    fault(p) {
      fail('unsupported', `fault ${p.fault} is not offered by this journal`);
    },
    seed() {
      fail('seed_unsupported', 'this journal cannot plant legacy rows');
    },
  };
}

// Canonical JSON: keys sorted by UTF-16 code unit (JavaScript's own sort), no whitespace, ECMAScript numbers and escapes.
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

function fail(code, message) {
  throw new JournalError(code, message);
}
