// A journal written from scratch, shaped like none of ours: one JSON file per effect in a directory, no database and
// no log. link() claims an identity (it fails when the name exists, so the first of two racing writers wins), rename()
// replaces a row, a sweep is a durable intent file rolled forward by whoever reads next. Conservative, runs only.
// `createFilesJournal(options, bugs)` builds it with an author's bugs switched on; `createJournal` is the correct one.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
// The class alone, not the public entry: loading all of dist/index.js cost each driver start about a second.
import { JournalError } from '../../../dist/harness/journal-interface.js';
import { argsDigest, mappingDigest } from '../../../examples/log-journal/digest.mjs';

const CAPABILITIES = {
  crashPoints: ['prepare.before-commit', 'prepare.after-commit', 'settle.before-commit', 'settle.after-commit', 'run-sweep.before-commit'],
  faults: ['settle_write_fails', 'gate_read_fails'],
  tierMode: 'conservative',
  sessions: false,
  seeding: false,
  outerTransactionProbe: false,
  resolution: true,
  sqliteWal: false,
};
const ROW = /^([0-9a-f]{24})\.(\d+)\.json$/;

export function createJournal(options) {
  return createFilesJournal(options, {});
}

/** The journal; `bugs` names the author's mistakes to make (none: a conformant journal). */
export function createFilesJournal({ crashpoint }, bugs, name = 'core-files-journal') {
  const faults = new Set();
  let dir = null;
  const rows = () => (dir ?? fail('not_open', 'the journal has not been opened'), join(dir, 'rows'));
  const sweeps = () => join(dir, 'sweeps');

  // The identity a file name claims: scope with the attempt dropped, slot, tool (§2 EffectIdentity).
  const identityHash = (c, slot, toolId) => {
    const scope = bugs.nodeIgnored ? ['run', c.runId, slot, toolId] : ['run', c.runId, c.nodeId, slot, toolId];
    if (bugs.attemptInIdentity) scope.push(c.attempt);
    return createHash('sha256').update(JSON.stringify(scope)).digest('hex').slice(0, 24);
  };
  const file = (hash, gen) => join(rows(), `${hash}.${gen}.json`);
  const parseId = (id) => /^([0-9a-f]{24})\.(\d+)$/.exec(id);

  // Every live row: the highest generation of each identity (a lower one is a discarded row a replacement superseded).
  const readAll = () => {
    rollForward();
    const best = new Map();
    for (const f of readdirSync(rows())) {
      const m = ROW.exec(f);
      if (!m) continue;
      const gen = Number(m[2]);
      if ((best.get(m[1])?.gen ?? -1) < gen) best.set(m[1], { gen, f });
    }
    return [...best.values()].map(({ f }) => JSON.parse(readFileSync(join(rows(), f), 'utf8')));
  };
  const readRow = (hash) => readAll().find((r) => r.hash === hash) ?? null;
  const byId = (id) => {
    const m = parseId(id);
    if (!m) return null;
    const r = readRow(m[1]);
    return r && (bugs.settleAnyGeneration || r.gen === Number(m[2])) ? r : null;
  };

  // A finished write: the bytes, then fsync of the file; the name appears atomically (link or rename), then the directory's fsync.
  const writeTemp = (path, row) => {
    const fd = openSync(path, 'w');
    try {
      writeSync(fd, JSON.stringify(row));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  };
  const syncDir = (path) => {
    const fd = openSync(path, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  };
  const replaceRow = (row) => {
    const target = file(row.hash, row.gen);
    // The bug: "the row's file is already there", so it is overwritten where it is (truncated, then written).
    if (bugs.rewriteInPlace) return () => writeTemp(target, row);
    const temp = `${target}.tmp-${randomBytes(6).toString('hex')}`;
    writeTemp(temp, row);
    return () => {
      renameSync(temp, target);
      syncDir(rows());
    };
  };

  // A sweep intent on disk is a committed sweep: finish it (again) before anything reads.
  function rollForward() {
    for (const f of readdirSync(sweeps())) {
      if (!f.endsWith('.json')) continue;
      const intent = JSON.parse(readFileSync(join(sweeps(), f), 'utf8'));
      for (const n of intent.files) for (const g of readdirSync(rows()).filter((x) => x === n || x.startsWith(`${n}.tmp-`))) rmSync(join(rows(), g), { force: true });
      syncDir(rows());
      rmSync(join(sweeps(), f), { force: true });
    }
  }

  const view = (r) => ({
    effectId: r.id, scope: r.scope, slot: r.slot, toolId: r.toolId, tier: r.tier, state: r.state, argsDigest: r.argsDigest,
    idempotencyKey: r.key, resultRetained: r.result !== null, resolution: r.resolution, attempt: r.attempt,
  });
  const now = () => new Date().toISOString();

  return {
    name,
    version: '0.1.0',
    capabilities: CAPABILITIES,
    open(p) {
      dir = p.dir;
      mkdirSync(join(dir, 'rows'), { recursive: true });
      mkdirSync(join(dir, 'sweeps'), { recursive: true });
      rollForward();
      return { files: readdirSync(rows()).map((f) => join(rows(), f)) };
    },
    close() {
      dir = null;
    },
    prepare(p) {
      const c = p.correlation;
      if (c.kind !== 'run') fail('unsupported', 'params.correlation.kind: this journal has no sessions');
      const hash = identityHash(c, p.slot, p.toolId);
      const digest = argsDigest(p.args, p.secretArgKeys);
      const mapping = mappingDigest(p.outputMappingConfig);
      const existing = readRow(hash);
      let gen = 0;
      if (existing) {
        const verdict = judge(existing, digest, mapping);
        if (verdict) return verdict;
        gen = existing.gen + 1;
      }
      const id = `${hash}.${gen}`;
      const key = p.tier === 1 ? `fk-${createHash('sha256').update(`${id}:${randomBytes(8).toString('hex')}`).digest('hex').slice(0, 32)}` : null;
      const row = {
        hash, gen, id, scope: { kind: 'run', runId: c.runId, nodeId: c.nodeId }, slot: p.slot, toolId: p.toolId, tier: p.tier, state: 'prepared',
        argsDigest: digest, mappingDigest: mapping, key, result: null, resolution: null,
        attempt: { nodeAttempt: c.attempt, ...p.audit }, createdAt: now(), updatedAt: now(),
      };
      const temp = `${file(hash, gen)}.tmp-${randomBytes(6).toString('hex')}`;
      writeTemp(temp, row);
      crashpoint('prepare.before-commit');
      try {
        linkSync(temp, file(hash, gen));
      } catch (error) {
        if (error?.code !== 'EEXIST') throw error;
        return { verdict: 'refuse', code: 'duplicate_identity', effectId: id, message: 'another writer prepared this identity first' };
      } finally {
        unlinkSync(temp);
      }
      syncDir(rows());
      if (gen > 0) rmSync(file(hash, gen - 1), { force: true });
      crashpoint('prepare.after-commit');
      return { verdict: 'proceed', effectId: id, idempotencyKey: key };
    },
    settle(p) {
      const row = byId(p.effectId);
      if (!row) fail('settle_no_row', `no effect ${p.effectId}`);
      if (row.state !== 'prepared') fail('settle_already_settled', `effect ${p.effectId} is already ${row.state}`);
      if (faults.has('settle_write_fails')) fail('settle_write_failed', 'injected fault: the settle could not be written');
      const next = p.state === 'committed' ? { ...row, state: 'committed', result: p.result, updatedAt: now() } : { ...row, state: 'ambiguous', reason: p.reason, updatedAt: now() };
      const commit = replaceRow(next);
      crashpoint('settle.before-commit');
      commit();
      crashpoint('settle.after-commit');
      return { effectId: p.effectId, state: next.state };
    },
    gate(p) {
      if (faults.has('gate_read_fails')) return { decision: 'refuse', effects: [], refusal: { code: 'gate_read_failed', tier: null, effectIds: [], message: 'injected fault: the rows could not be read; resuming is refused' } };
      const mine = readAll().filter((r) => r.scope.runId === p.scope.runId && r.scope.nodeId === p.scope.nodeId).sort((a, b) => a.slot - b.slot || (a.id < b.id ? -1 : 1));
      const effects = mine.map((r) => ({ effectId: r.id, slot: r.slot, toolId: r.toolId, tier: r.tier, state: r.state, action: action(r), idempotencyKey: r.key }));
      const blocked = effects.filter((e) => e.action === 'needs_attention');
      if (blocked.length === 0) return { decision: 'pass', effects, refusal: null };
      const ids = blocked.map((e) => e.effectId);
      return { decision: 'refuse', effects, refusal: { code: 'effect_needs_attention', tier: blocked[0].tier, effectIds: ids, message: `tier ${blocked[0].tier} effect(s) ${ids.join(', ')} need attention; this journal has no reconciler, every tier is refused like tier 3` } };
    },
    reconcile() {
      fail('reconcile_invalid', 'this journal is conservative: there is no tier 1/2 reconciler');
    },
    resolve(p) {
      const row = byId(p.effectId);
      if (!row || row.state === 'committed' || row.resolution !== null) fail('resolve_invalid', `effect ${p.effectId} is not an unresolved row`);
      const next = { ...row, resolution: { decision: p.decision, actor: p.actor, at: now() }, updatedAt: now() };
      replaceRow(next)();
      return view(next);
    },
    runTerminal(p) {
      const doomed = readAll().filter((r) => r.scope.runId === p.runId && r.state === 'committed');
      const intent = join(sweeps(), `${randomBytes(8).toString('hex')}.json`);
      writeTemp(`${intent}.tmp`, { runId: p.runId, files: doomed.map((r) => `${r.hash}.${r.gen}.json`) });
      crashpoint('run-sweep.before-commit');
      renameSync(`${intent}.tmp`, intent);
      syncDir(sweeps());
      rollForward();
      return { deleted: doomed.length };
    },
    sessionRead() {
      fail('unsupported', 'this journal has no sessions');
    },
    sessionSweep() {
      fail('unsupported', 'this journal has no sessions');
    },
    checkpoint() {
      rollForward();
      return { checkpoint: 'complete' };
    },
    listEffects() {
      return { effects: readAll().sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1)).map(view) };
    },
    files() {
      return { files: readdirSync(rows()).map((f) => join(rows(), f)) };
    },
    fault(p) {
      if (!CAPABILITIES.faults.includes(p.fault)) fail('unsupported', `fault ${p.fault} is not offered by this journal`);
      if (p.enabled) faults.add(p.fault);
      else faults.delete(p.fault);
    },
    seed() {
      fail('seed_unsupported', 'this journal cannot plant legacy rows');
    },
  };

  // §4 for a prepare at an identity that holds a row: undefined means "the operator discarded it: replace it".
  function judge(row, digest, mapping) {
    const refuse = (code, message) => ({ verdict: 'refuse', code, effectId: row.id, message });
    if (row.resolution?.decision === 'discarded') return undefined;
    if (row.state !== 'committed' && row.resolution?.decision !== 'accepted') return refuse('duplicate_identity', `an unresolved (${row.state}) effect holds this identity`);
    if (row.argsDigest !== digest) return refuse('args_mismatch', 'the arguments differ from the recorded effect at this slot');
    if (row.mappingDigest !== mapping) return refuse('output_mapping_changed', 'the output-mapping configuration differs');
    if (row.state !== 'committed' || row.result === null) return refuse('result_not_retained', 'the effect landed but no result was retained');
    return { verdict: 'replay', effectId: row.id, result: row.result };
  }
}

function action(r) {
  if (r.state === 'committed' && r.result !== null) return 'replay';
  if (r.resolution?.decision === 'accepted') return 'none';
  if (r.resolution?.decision === 'discarded') return 'run_again';
  return 'needs_attention';
}

function fail(code, message) {
  throw new JournalError(code, message);
}
