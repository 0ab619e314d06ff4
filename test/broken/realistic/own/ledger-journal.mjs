// A journal written from scratch, shaped like an outsider's: one SQLite table keyed by a composite identity string,
// its own redactor and canonical JSON, run effects only (no sessions, seeding, faults or crash points), conservative tiers.
// `flaws` injects one author's bug at a time; with none it is meant to pass every scenario it claims.
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

class JournalError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'JournalError';
    this.code = code;
  }
}

// Its rows live in SQLite in WAL mode (journal_mode = WAL below): claims.storage-matches-hello reads that from the headers.
const CAPABILITIES = { crashPoints: [], faults: [], tierMode: 'conservative', sessions: false, seeding: false, outerTransactionProbe: false, resolution: false, sqliteWal: true };

/** flaws: { keyOrder?: 'utf8', htmlSafe?: true, softDelete?: true } */
export function ledgerJournal(name, flaws = {}) {
  let db = null;
  let file = null;
  const need = () => db ?? (() => { throw new JournalError('not_open', 'open first'); })();
  const tx = (fn) => {
    for (let i = 0; ; i++) {
      try {
        return db.transaction(fn).immediate();
      } catch (e) {
        if (!String(e?.code).startsWith('SQLITE_BUSY') || i > 50) throw e;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
      }
    }
  };
  const live = flaws.softDelete ? `AND swept = 0` : '';
  return {
    name: `realistic:${name}`,
    version: '1.0.0',
    capabilities: CAPABILITIES,
    open({ dir }) {
      mkdirSync(dir, { recursive: true });
      file = join(dir, 'ledger.db');
      db = new Database(file);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('secure_delete = ON');
      db.pragma('busy_timeout = 5000');
      db.exec(`CREATE TABLE IF NOT EXISTS ledger (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, ident TEXT NOT NULL UNIQUE, run TEXT NOT NULL, node TEXT NOT NULL,
        slot INTEGER NOT NULL, tool TEXT NOT NULL, tier INTEGER NOT NULL, status TEXT NOT NULL, digest TEXT NOT NULL,
        mapping TEXT, outcome TEXT, ikey TEXT, audit TEXT NOT NULL, swept INTEGER NOT NULL DEFAULT 0)`);
      return { files: [file, `${file}-wal`] };
    },
    close() {
      db?.close();
      db = null;
      return {};
    },
    prepare(p) {
      need();
      if (p.correlation.kind !== 'run') throw new JournalError('unsupported', 'params.correlation.kind: sessions are not supported');
      const { runId, nodeId, attempt } = p.correlation;
      const ident = JSON.stringify([runId, nodeId, p.slot, p.toolId]);
      const digest = `v5:${createHash('sha256').update(canonical(redact(p.args, p.secretArgKeys), flaws), 'utf8').digest('hex')}`;
      const mapping = p.outputMappingConfig === undefined ? null : canonical(p.outputMappingConfig, {});
      return tx(() => {
        const row = db.prepare(`SELECT * FROM ledger WHERE ident = ? ${live}`).get(ident);
        if (row) return verdictFor(row, digest, mapping);
        if (flaws.softDelete) db.prepare('DELETE FROM ledger WHERE ident = ? AND swept = 1').run(ident);
        const ikey = `lk-${randomUUID()}`;
        const audit = JSON.stringify({ nodeAttempt: attempt, ...p.audit });
        const info = db.prepare('INSERT INTO ledger (ident, run, node, slot, tool, tier, status, digest, mapping, ikey, audit) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
          .run(ident, runId, nodeId, p.slot, p.toolId, p.tier, 'prepared', digest, mapping, ikey, audit);
        return { verdict: 'proceed', effectId: String(info.lastInsertRowid), idempotencyKey: ikey };
      });
    },
    settle(p) {
      need();
      return tx(() => {
        const row = db.prepare(`SELECT * FROM ledger WHERE seq = ? ${live}`).get(Number(p.effectId));
        if (!row) throw new JournalError('settle_no_row', `no effect ${p.effectId}`);
        if (row.status !== 'prepared') throw new JournalError('settle_already_settled', `${p.effectId} is already ${row.status}`);
        const outcome = p.state === 'committed' && p.result ? JSON.stringify(p.result) : null;
        db.prepare('UPDATE ledger SET status = ?, outcome = ? WHERE seq = ?').run(p.state, outcome, row.seq);
        return { effectId: p.effectId, state: p.state };
      });
    },
    gate(p) {
      need();
      const rows = db.prepare(`SELECT * FROM ledger WHERE run = ? AND node = ? ${live} ORDER BY slot, seq`).all(p.scope.runId, p.scope.nodeId);
      const effects = rows.map((r) => ({ effectId: String(r.seq), slot: r.slot, toolId: r.tool, tier: r.tier, state: r.status, action: r.status === 'committed' && r.outcome !== null ? 'replay' : 'needs_attention', idempotencyKey: r.ikey }));
      const blocking = effects.filter((e) => e.action === 'needs_attention');
      if (blocking.length === 0) return { decision: 'pass', effects, refusal: null };
      return { decision: 'refuse', effects, refusal: { code: 'effect_needs_attention', tier: blocking[0].tier, effectIds: blocking.map((e) => e.effectId), message: `${blocking.length} effect(s) of tier ${blocking[0].tier} need attention` } };
    },
    reconcile() {
      throw new JournalError('reconcile_invalid', 'this journal has no reconcilers (conservative)');
    },
    resolve() {
      throw new JournalError('unsupported', 'operator resolution is not supported');
    },
    runTerminal({ runId }) {
      need();
      const deleted = tx(() => (flaws.softDelete
        ? db.prepare(`UPDATE ledger SET swept = 1 WHERE run = ? AND status = 'committed' AND swept = 0`).run(runId).changes
        : db.prepare(`DELETE FROM ledger WHERE run = ? AND status = 'committed'`).run(runId).changes));
      checkpoint();
      return { deleted };
    },
    checkpoint() {
      need();
      return { checkpoint: checkpoint() };
    },
    listEffects() {
      need();
      return { effects: db.prepare(`SELECT * FROM ledger WHERE 1 ${live} ORDER BY seq`).all().map(toRow) };
    },
    files() {
      need();
      return { files: [file, `${file}-wal`] };
    },
    fault({ fault }) {
      throw new JournalError('unsupported', `fault ${fault} is not supported`);
    },
    seed() {
      throw new JournalError('seed_unsupported', 'this journal cannot plant legacy rows');
    },
    sessionRead() {
      throw new JournalError('unsupported', 'sessions are not supported');
    },
    sessionSweep() {
      throw new JournalError('unsupported', 'sessions are not supported');
    },
  };

  function checkpoint() {
    const [r] = db.pragma('wal_checkpoint(TRUNCATE)');
    return r && r.busy === 0 ? 'complete' : 'deferred';
  }
}

function verdictFor(row, digest, mapping) {
  const effectId = String(row.seq);
  const refuse = (code, message) => ({ verdict: 'refuse', code, effectId, message });
  if (row.status !== 'committed') return refuse('duplicate_identity', `effect ${effectId} is ${row.status}`);
  if (!row.digest.startsWith('v5:')) return refuse('legacy_digest', 'legacy digest');
  if (row.digest !== digest) return refuse('args_mismatch', 'different arguments at this slot');
  if (row.mapping !== mapping) return refuse('output_mapping_changed', 'the output mapping changed');
  if (row.outcome === null) return refuse('result_not_retained', 'no result was kept');
  return { verdict: 'replay', effectId, result: JSON.parse(row.outcome) };
}

function toRow(r) {
  const a = JSON.parse(r.audit);
  return {
    effectId: String(r.seq), scope: { kind: 'run', runId: r.run, nodeId: r.node }, slot: r.slot, toolId: r.tool, tier: r.tier, state: r.status,
    argsDigest: r.digest, idempotencyKey: r.ikey, resultRetained: r.outcome !== null, resolution: null,
    attempt: { nodeAttempt: a.nodeAttempt ?? null, providerAttempt: a.providerAttempt, callId: a.callId, ownerId: a.ownerId, generation: a.generation },
  };
}

// ---- canonical JSON: sorted keys, no whitespace ----
function canonical(value, flaws) {
  if (value === null || typeof value !== 'object') return typeof value === 'string' ? str(value, flaws) : JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, flaws)).join(',')}]`;
  const keys = Object.keys(value);
  // The author's "canonical order": bytewise, as every other language sorts strings.
  keys.sort(flaws.keyOrder === 'utf8' ? (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)) : undefined);
  return `{${keys.map((k) => `${str(k, flaws)}:${canonical(value[k], flaws)}`).join(',')}}`;
}

function str(s, flaws) {
  const json = JSON.stringify(s);
  // "HTML-safe JSON" as Go's encoder writes it: <, >, & and the JS line separators escaped.
  return flaws.htmlSafe ? json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : json;
}

// ---- redaction (§11): declared keys dropped, recognized credential shapes masked ----
const MASK = '[redacted]';
const CRED_KEYS = new Set(['password', 'passwd', 'secret', 'token', 'apikey', 'authorization', 'accesstoken', 'clientsecret', 'privatekey', 'cookie', 'credentials']);
const CRED_PARAMS = new Set(['token', 'accesstoken', 'apikey', 'password', 'secret', 'clientsecret']);
const CRED_FLAGS = new Set(['token', 'password', 'secret', 'apikey', 'accesstoken']);
const norm = (k) => k.toLowerCase().replace(/[^a-z0-9]/g, '');

function redact(args, secretKeys) {
  const out = {};
  for (const k of Object.keys(args)) if (!secretKeys.includes(k)) Object.defineProperty(out, k, { value: mask(k, args[k]), enumerable: true, writable: true, configurable: true });
  return out;
}

function mask(key, value) {
  return CRED_KEYS.has(norm(key)) ? MASK : scrub(value);
}

function scrub(v) {
  if (typeof v === 'string') return scrubText(v);
  if (Array.isArray(v)) return flags(v).map((x) => (x === MASK ? x : scrub(x)));
  if (v !== null && typeof v === 'object') {
    const out = {};
    for (const k of Object.keys(v)) Object.defineProperty(out, k, { value: mask(k, v[k]), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}

const isPort = (s) => /^\d{1,5}(:\d{1,5})?(\/(tcp|udp))?$/.test(s) || /^(\d{1,3}(\.\d{1,3}){3}:)?\d{1,5}:\d{1,5}$/.test(s);

function flags(items) {
  const out = [...items];
  for (let i = 0; i < out.length; i++) {
    const m = typeof out[i] === 'string' ? /^(--?)([A-Za-z][A-Za-z0-9_-]*)(?:=([\s\S]*))?$/.exec(out[i]) : null;
    if (!m) continue;
    const p = m[1] === '-' && m[2] === 'p';
    if (!p && !(m[1] === '--' && CRED_FLAGS.has(norm(m[2])))) continue;
    if (m[3] !== undefined) {
      if (!p || !isPort(m[3])) out[i] = `${m[1]}${m[2]}=${MASK}`;
      continue;
    }
    const next = out[i + 1];
    if (i + 1 < out.length && !(p && (typeof next === 'number' || (typeof next === 'string' && isPort(next))))) out[i + 1] = MASK;
    i++;
  }
  return out;
}

function scrubText(text) {
  const scheme = /^\s*(bearer|basic|token)\s+\S/i.exec(text);
  if (scheme) return `${scheme[1].toLowerCase()} ${MASK}`;
  let out = '';
  let last = 0;
  const opener = /(["']?)([A-Za-z0-9_.-]+)\1\s*[:=]\s*(["'])/g;
  for (let m = opener.exec(text); m; m = opener.exec(text)) {
    if (!CRED_KEYS.has(norm(m[2]))) continue;
    const start = m.index + m[0].length;
    let end = start;
    while (end < text.length && text[end] !== m[3]) end += text[end] === '\\' ? 2 : 1;
    out += text.slice(last, start) + MASK;
    last = Math.min(end, text.length);
    opener.lastIndex = Math.max(last, opener.lastIndex);
  }
  out += text.slice(last);
  const u = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*)([\s\S]*)$/.exec(out);
  if (!u) return out;
  const at = u[2].lastIndexOf('@');
  const host = at < 0 ? u[2] : `${MASK}${u[2].slice(at)}`;
  const rest = u[3].replace(/([?&;])([^=&#;]+)=([^&#;]*)/g, (whole, sep, name) => {
    let k = name;
    try { k = decodeURIComponent(name); } catch { /* keep it */ }
    return CRED_PARAMS.has(norm(k)) ? `${sep}${name}=${MASK}` : whole;
  });
  return `${u[1]}${host}${rest}`;
}
