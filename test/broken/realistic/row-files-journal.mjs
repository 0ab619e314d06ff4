// A journal written from the contract alone, on one JSON file per effect whose name is the effect's identity:
// effects/<scope>.<slot>.<tool>.<generation>.json. link() claims a name (it fails when the name exists, so the first of
// two racing writers wins), rename() replaces a row, a discarded row stays beside the next generation, and a sweep is a
// numbered intent file (the rows to delete), linked in commit order and kept as their tombstone, that whoever opens next
// rolls forward. Runs and sessions, conservative tiers. `createBlind3Files(context, bugs, name)` builds it with an
// author's bugs switched on; the default export is the correct one, conformant on the default matrix.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
// The class alone, not the public entry: loading all of dist/index.js costs each driver start about a second.
import { JournalError } from '../../../dist/harness/journal-interface.js';
import { argsDigest, mappingDigest } from '../../../examples/log-journal/digest.mjs';

const POINTS = ['prepare.before-commit', 'prepare.after-commit', 'settle.before-commit', 'settle.after-commit', 'run-sweep.before-commit', 'session-sweep.before-commit', 'session-sweep.after-commit'];
const CAPABILITIES = { crashPoints: POINTS, faults: ['settle_write_fails', 'gate_read_fails', 'session_read_fails'], tierMode: 'conservative', sessions: true, seeding: false, outerTransactionProbe: false, resolution: true, sqliteWal: false };
const LEGACY_CALL_IDS = new Set(['legacy:session', 'legacy:home', 'legacy:agent-run']);

export function createJournal(context) {
  return createBlind3Files(context, {}, 'row-files-journal');
}

/** The journal; `bugs` names the author's mistakes to make (none: the correct journal). */
export function createBlind3Files({ crashpoint }, bugs, name) {
  const faults = new Set();
  let dir = null;
  const sub = (d) => (dir === null ? fail('not_open', 'the journal has not been opened') : join(dir, d));
  // Every name is the identity itself (§2 EffectIdentity: scope without the attempt, slot, tool).
  const scopeName = (scope) => b64(JSON.stringify(scope.kind === 'run' ? ['run', scope.runId, scope.nodeId] : ['session', scope.sessionId, scope.turn]));
  const toolName = bugs.toolName ?? b64;
  const identityName = (scope, slot, toolId) => `${scopeName(scope)}.${slot}.${toolName(toolId)}`;

  // A file's bytes written and synced under a private name, so no reader ever sees it half-written.
  const staged = (record) => {
    const tmp = join(sub('tmp'), `${process.pid}-${randomBytes(6).toString('hex')}.json`);
    const fd = openSync(tmp, 'wx');
    try {
      writeSync(fd, JSON.stringify(record));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return tmp;
  };
  const syncDir = (d) => {
    const fd = openSync(d, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  };
  // Replaces a row's file with a staged copy: rename() is atomic, a reader sees the old bytes or the new.
  const replace = (tmp, file) => {
    if (bugs.replaceByUnlink) unlinkSync(file);
    renameSync(tmp, file);
  };
  // A sweep's intent names each row it deletes by file and effect id, and stays as its tombstone: a row whose effect id
  // any intent names is gone, whether or not its file is unlinked yet, and a tombstoned file name is never claimed
  // again, so rolling an intent forward (again, or late) can only unlink the row it named.
  const intents = () =>
    readdirSync(sub('intents'))
      .filter((n) => n.endsWith('.json'))
      .sort()
      .map((n) => ({ seq: Number(n.slice(0, -5)), entries: readJson(join(sub('intents'), n))?.entries ?? [] }));
  // Every row, from its file, then the intents: a sweep committed before the intents are read hides all its rows even if
  // some of their files were read before its unlinks, and one committed after is ordered after this read.
  const snapshot = () => {
    const names = readdirSync(sub('effects')).filter((n) => n.endsWith('.json'));
    const found = names.flatMap((n) => {
      const record = readJson(join(sub('effects'), n));
      return record === null ? [] : [{ ...record, file: n, generation: Number(n.split('.')[3]) }];
    });
    const all = intents();
    const gone = new Set(all.flatMap((i) => i.entries.map((e) => e.effectId)));
    return { rows: found.filter((r) => !gone.has(r.effectId)), names: [...names, ...all.flatMap((i) => i.entries.map((e) => e.file))] };
  };
  const rows = () => snapshot().rows;
  const holderOf = (all, prefix) => all.filter((r) => r.file.startsWith(prefix)).sort((a, b) => b.generation - a.generation)[0] ?? null;
  // The next generation is above every file of the identity, visible, swept or tombstoned, so no name is reused.
  const nextGeneration = (names, prefix) => 1 + Math.max(-1, ...names.filter((n) => n.startsWith(prefix)).map((n) => Number(n.split('.')[3])));
  const byId = (id) => rows().find((r) => r.effectId === id) ?? null;
  const write = (row, changes, points) => {
    const { file, generation: _g, ...record } = row;
    const tmp = staged({ ...record, ...changes });
    if (points) crashpoint(points[0]);
    replace(tmp, join(sub('effects'), file));
    syncDir(sub('effects'));
    if (points) crashpoint(points[1]);
    return { ...row, ...changes };
  };
  // Deletes rows in one commit: linking the next numbered intent is the commit, the unlinks roll it forward. Intents
  // are numbered in the order they commit (each takes the first free number above every one it saw, and none is ever
  // removed), so a row's deletion belongs to the first intent that names it: that is the count (§9 "actual deletions
  // are counted"), and two sweeps of the same rows answer all and none, never a split.
  const sweep = (targets, points) => {
    if (targets.length === 0) return 0;
    if (bugs.sweepFileByFile) {
      crashpoint(points[0]);
      const deleted = targets.filter((t) => unlinkIfThere(join(sub('effects'), t.file))).length;
      syncDir(sub('effects'));
      if (points[1]) crashpoint(points[1]);
      return deleted;
    }
    const entries = targets.map((t) => ({ file: t.file, effectId: t.effectId }));
    const tmp = staged({ entries });
    crashpoint(points[0]);
    let seq = 1 + Math.max(0, ...intents().map((i) => i.seq));
    for (;;) {
      try {
        linkSync(tmp, join(sub('intents'), `${String(seq).padStart(12, '0')}.json`));
        break;
      } catch (err) {
        if (err.code !== 'EEXIST') throw err;
        seq++; // another sweep committed this number first: it is ordered before this one
      }
    }
    unlinkSync(tmp);
    syncDir(sub('intents'));
    if (points[1]) crashpoint(points[1]);
    const earlier = new Set(intents().filter((i) => i.seq < seq).flatMap((i) => i.entries.map((e) => e.effectId)));
    rollForward(entries);
    return new Set(entries.map((e) => e.effectId).filter((id) => !earlier.has(id))).size;
  };
  const rollForward = (entries) => {
    for (const e of entries) if (readJson(join(sub('effects'), e.file))?.effectId === e.effectId) unlinkIfThere(join(sub('effects'), e.file));
    syncDir(sub('effects'));
  };

  const prepare = (p) => {
    const c = p.correlation;
    const scope = c.kind === 'run' ? { kind: 'run', runId: c.runId, nodeId: c.nodeId } : { kind: 'session', sessionId: c.sessionId, turn: c.turn };
    const prefix = `${identityName(scope, p.slot, p.toolId)}.`;
    const digest = argsDigest(p.args, p.secretArgKeys);
    const mapping = mappingDigest(p.outputMappingConfig);
    for (let tries = 0; tries < 8; tries++) {
      const { rows: all, names } = snapshot();
      const holder = holderOf(all, prefix);
      if (holder !== null && holder.resolution?.decision !== 'discarded') return judge(holder, digest, mapping);
      const record = {
        effectId: randomBytes(8).toString('hex'), scope, slot: p.slot, toolId: p.toolId, tier: p.tier, state: 'prepared', argsDigest: digest, mappingDigest: mapping,
        idempotencyKey: p.tier === 1 ? `idk-${randomBytes(16).toString('hex')}` : null, result: null, resolution: null,
        attempt: { nodeAttempt: c.kind === 'run' ? c.attempt : null, ...p.audit },
      };
      const tmp = staged(record);
      crashpoint('prepare.before-commit');
      try {
        linkSync(tmp, join(sub('effects'), `${prefix}${nextGeneration(names, prefix)}.json`));
      } catch (err) {
        unlinkIfThere(tmp);
        if (err.code === 'EEXIST') continue; // another writer claimed the name first: judge its row
        throw err;
      }
      unlinkSync(tmp);
      syncDir(sub('effects'));
      crashpoint('prepare.after-commit');
      return { verdict: 'proceed', effectId: record.effectId, idempotencyKey: record.idempotencyKey };
    }
    fail('internal', 'the identity kept changing hands');
  };

  return {
    name: `realistic:${name}`,
    version: '0.1.0',
    capabilities: CAPABILITIES,
    open({ dir: d }) {
      dir = d;
      for (const s of ['effects', 'intents', 'tmp']) mkdirSync(sub(s), { recursive: true });
      for (const i of intents()) rollForward(i.entries);
      // A staged copy whose writer died is garbage; one of a live writer is its to finish.
      for (const n of readdirSync(sub('tmp'))) if (!alive(Number(n.split('-')[0]))) unlinkIfThere(join(sub('tmp'), n));
      if (bugs.openRewritesByUnlink) {
        // The author's format upgrade at open: every row is rewritten through a staged copy, unlinked before the rename.
        for (const n of readdirSync(sub('effects'))) {
          const file = join(sub('effects'), n);
          const tmp = staged(JSON.parse(readFileSync(file, 'utf8')));
          unlinkSync(file);
          renameSync(tmp, file);
        }
      }
      return { files: files() };
    },
    close() {
      dir = null;
      return {};
    },
    prepare,
    settle(p) {
      const row = byId(p.effectId) ?? fail('settle_no_row', `no effect ${p.effectId}`);
      if (row.state !== 'prepared' || row.resolution !== null) fail('settle_already_settled', `${p.effectId} is ${row.state}${row.resolution ? ` (${row.resolution.decision})` : ''}`);
      if (faults.has('settle_write_fails')) fail('settle_write_failed', 'injected settle_write_fails: nothing was written');
      const result = p.state === 'committed' && row.scope.kind === 'run' ? p.result : null;
      write(row, { state: p.state, result }, ['settle.before-commit', 'settle.after-commit']);
      return { effectId: row.effectId, state: p.state };
    },
    gate({ scope }) {
      if (faults.has('gate_read_fails')) return { decision: 'refuse', effects: [], refusal: { code: 'gate_read_failed', tier: null, effectIds: [], message: 'the journal could not be read' } };
      const mine = rows().filter((r) => r.scope.kind === 'run' && r.scope.runId === scope.runId && r.scope.nodeId === scope.nodeId).sort((a, b) => a.slot - b.slot);
      const effects = mine.map((r) => ({ effectId: r.effectId, slot: r.slot, toolId: r.toolId, tier: r.tier, state: r.state, action: actionOf(r), idempotencyKey: r.idempotencyKey }));
      const blocking = mine.filter((r) => actionOf(r) === 'needs_attention');
      if (blocking.length === 0) return { decision: 'pass', effects, refusal: null };
      const tier = Math.max(...blocking.map((r) => r.tier));
      return { decision: 'refuse', effects, refusal: { code: 'effect_needs_attention', tier, effectIds: blocking.map((r) => r.effectId), message: `${blocking.length} effect(s) need an operator (tier ${tier})` } };
    },
    reconcile() {
      fail('reconcile_invalid', 'no tier 1/2 reconciler: tiers 1 and 2 take tier 3\'s refusal');
    },
    resolve(p) {
      const row = byId(p.effectId) ?? fail('resolve_invalid', `no effect ${p.effectId}`);
      if (row.state === 'committed' || row.resolution !== null) fail('resolve_invalid', `${p.effectId} is ${row.state}, nothing to resolve`);
      return view(write(row, { resolution: { decision: p.decision, actor: p.actor, at: new Date().toISOString() } }));
    },
    runTerminal({ runId }) {
      const names = rows().filter((r) => r.scope.kind === 'run' && r.scope.runId === runId && r.state === 'committed');
      return { deleted: sweep(names, ['run-sweep.before-commit']) };
    },
    sessionRead({ sessionId, transcript }) {
      if (faults.has('session_read_fails')) fail('session_read_failed', 'injected session_read_fails');
      const mine = rows().filter((r) => r.scope.kind === 'session' && r.scope.sessionId === sessionId);
      const seen = new Map();
      for (const turn of transcript) for (const call of turn.calls) seen.set(call.callId, [...(seen.get(call.callId) ?? []), { toolName: call.toolName, status: turn.status }]);
      const disclosures = mine.flatMap((r) => {
        const reason = disclosureOf(r, seen.get(r.attempt.callId) ?? []);
        return reason === null ? [] : [{ effectId: r.effectId, reason }];
      });
      const captured = mine.filter((r) => r.state === 'committed').map((r) => ({ effectId: r.effectId, sessionId, turn: r.scope.turn, slot: r.slot, toolId: r.toolId, state: r.state }));
      return { effects: mine.map(view), disclosures, captured };
    },
    sessionSweep({ sessionId, captured }) {
      const all = rows();
      const names = captured.flatMap((c) => {
        const r = all.find((x) => x.effectId === c.effectId);
        const same = r && r.state === 'committed' && r.scope.kind === 'session' && r.scope.sessionId === sessionId && c.sessionId === sessionId && r.scope.turn === c.turn && r.slot === c.slot && r.toolId === c.toolId;
        return same ? [r] : [];
      });
      return { deleted: sweep([...new Map(names.map((r) => [r.effectId, r])).values()], ['session-sweep.before-commit', 'session-sweep.after-commit']), checkpoint: 'complete' };
    },
    // Deleted files take their bytes with them: there is no log or free page to erase.
    checkpoint: () => ({ checkpoint: 'complete' }),
    listEffects: () => ({ effects: rows().map(view) }),
    files: () => ({ files: files() }),
    fault({ fault, enabled }) {
      if (!CAPABILITIES.faults.includes(fault)) fail('unsupported', `fault ${fault} is not supported`);
      if (enabled) faults.add(fault);
      else faults.delete(fault);
      return {};
    },
    seed() {
      fail('seed_unsupported', 'this journal cannot plant legacy rows');
    },
  };

  function files() {
    return ['effects', 'intents', 'tmp'].flatMap((s) => readdirSync(sub(s)).map((n) => join(sub(s), n)));
  }
}

// The §4 verdict for a prepare of an identity a row holds.
function judge(row, digest, mapping) {
  const refuse = (code, message) => ({ verdict: 'refuse', code, effectId: row.effectId, message });
  if (row.scope.kind === 'session') return row.state === 'committed' ? refuse('session_never_replays', 'a session effect never replays') : refuse('duplicate_identity', 'an earlier attempt holds this identity');
  if (!row.argsDigest.startsWith('v5:')) return refuse('legacy_digest', 'the row has a legacy digest');
  if (row.state !== 'committed') return refuse('unresolved_prior_effect', `the row holding this identity is ${row.state}`);
  if (row.argsDigest !== digest) return refuse('args_mismatch', 'the arguments differ from the recorded call');
  if (row.mappingDigest !== mapping) return refuse('output_mapping_changed', 'the output mapping differs from the one the effect ran under');
  if (row.result === null) return refuse('result_not_retained', 'the committed row kept no result');
  return { verdict: 'replay', effectId: row.effectId, result: row.result };
}

// §4's table, conservative: only a retained result or an operator's decision lets the node go on.
function actionOf(r) {
  if (r.resolution?.decision === 'accepted') return 'none';
  if (r.resolution?.decision === 'discarded') return 'run_again';
  return r.state === 'committed' && r.result !== null ? 'replay' : 'needs_attention';
}

// §8: what a resumed session discloses about one of its rows, joined against the whole transcript.
function disclosureOf(r, sightings) {
  if (r.state !== 'committed') return 'unresolved';
  if (r.slot < 0) return null;
  if (LEGACY_CALL_IDS.has(r.attempt.callId)) return 'legacy';
  if (sightings.length > 1 || (sightings.length === 1 && sightings[0].toolName !== r.toolId)) return 'unattributable';
  return sightings.length === 1 && sightings[0].status === 'completed' ? null : 'turn_incomplete';
}

function view(r) {
  return { effectId: r.effectId, scope: r.scope, slot: r.slot, toolId: r.toolId, tier: r.tier, state: r.state, argsDigest: r.argsDigest, idempotencyKey: r.idempotencyKey, resultRetained: r.scope.kind === 'run' && r.state === 'committed' && r.result !== null, resolution: r.resolution, attempt: r.attempt };
}

function b64(s) {
  return Buffer.from(s, 'utf8').toString('base64url');
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    if (err.code === 'ENOENT') return null; // swept or replaced between the listing and the read
    throw err;
  }
}

function unlinkIfThere(path) {
  try {
    unlinkSync(path);
    return true;
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
    return false;
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

function fail(code, message) {
  throw new JournalError(code, message);
}
