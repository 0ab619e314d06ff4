// The author's prepare: look the identity up first (a cheap read that never takes the write lock, so the common
// replay answers without queueing behind writers), then write the new row in its own BEGIN IMMEDIATE.
import { argsDigest, idempotencyKeyFor, isCurrentDigest, outputMappingDigest } from '../../../../dist/reference-impl/digest.js';
import { scopeColumns } from '../../../../dist/reference-impl/schema.js';
import { isUniqueViolation, readTransaction, stmt, writeTransaction } from '../../../../dist/reference-impl/sqlite.js';

export function prepareEffect(ctx, req) {
    return prepareLookingUp(readTransaction, ctx, req);
}
/** The same prepare with the identity looked up in a transaction of `lookup` (prepare-check-locked-first.mjs takes the write lock for it). */
export function prepareLookingUp(lookup, ctx, req) {
    const digest = argsDigest(req.args, req.secretArgKeys);
    const mappingDigest = outputMappingDigest(req.outputMappingConfig);
    const scope = req.correlation.kind === 'run'
        ? { kind: 'run', runId: req.correlation.runId, nodeId: req.correlation.nodeId }
        : { kind: 'session', sessionId: req.correlation.sessionId, turn: req.correlation.turn };
    const cols = scopeColumns(scope);
    const existing = lookup(ctx.db, () => findByIdentity(ctx.db, scope, req.slot, req.toolId));
    let replaces = null;
    if (existing) {
        const decided = judgeExisting(existing, digest, mappingDigest);
        if (decided)
            return decided;
        replaces = existing.idempotency_key ?? `discarded:${existing.id}`;
    }
    let verdict;
    try {
        verdict = writeTransaction(ctx.db, () => {
            // Discarded by an operator: the effect did not land, so the node may run it again.
            if (existing)
                stmt(ctx.db, 'DELETE FROM run_effects WHERE id = ?').run(existing.id);
            const id = nextRowId(ctx.db);
            const key = idempotencyKeyFor({ scope, slot: req.slot, toolId: req.toolId }, id, replaces);
            insertPrepared(ctx, req, cols, digest, mappingDigest, id, key);
            ctx.crashpoint('prepare.before-commit');
            return { verdict: 'proceed', effectId: String(id), idempotencyKey: key };
        });
    }
    catch (error) {
        if (isUniqueViolation(error))
            return refuse('duplicate_identity', null, 'another writer prepared this identity first');
        throw error;
    }
    if (verdict.verdict === 'proceed')
        ctx.crashpoint('prepare.after-commit');
    return verdict;
}
// undefined means "replace the row and proceed" (operator discarded it).
function judgeExisting(row, digest, mappingDigest) {
    const id = String(row.id);
    if (row.scope_kind === 'session') {
        return row.state === 'committed'
            ? refuse('session_never_replays', id, 'a session effect is never replayed; the earlier effect stands')
            : refuse('duplicate_identity', id, 'an earlier attempt of this session effect exists');
    }
    if (!isCurrentDigest(row.args_digest)) {
        return refuse('legacy_digest', id, 'the row was written with a legacy args digest; its projection cannot be proven');
    }
    if (row.resolution === 'discarded')
        return undefined;
    if (row.state !== 'committed' && row.resolution !== 'accepted') {
        return refuse('duplicate_identity', id, `an unresolved (${row.state}) effect holds this identity`);
    }
    if (row.args_digest !== digest)
        return refuse('args_mismatch', id, 'the arguments differ from the recorded effect at this slot');
    if (row.output_mapping_digest !== mappingDigest) {
        return refuse('output_mapping_changed', id, 'the output-mapping configuration differs from the one the effect ran under');
    }
    if (row.result_json === null)
        return refuse('result_not_retained', id, 'the effect committed but its result was not retained');
    const result = parseRecorded(row.result_json);
    if (!result)
        return refuse('result_corrupt', id, 'the stored result is not a readable recorded result');
    return { verdict: 'replay', effectId: id, result };
}
// Checked by hand, not with the protocol's zod schema: the journal must not pay zod's load time in every driver.
function parseRecorded(json) {
    let value;
    try {
        value = JSON.parse(json);
    }
    catch {
        return null;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
        return null;
    const { modelValue, truncated, summary, outputMappingResult } = value;
    if (typeof modelValue !== 'string' || typeof truncated !== 'boolean' || typeof summary !== 'string' || outputMappingResult === undefined)
        return null;
    return { modelValue, truncated, summary, outputMappingResult };
}
function insertPrepared(ctx, req, cols, digest, mappingDigest, id, key) {
    const now = ctx.now();
    const nodeAttempt = req.correlation.kind === 'run' ? req.correlation.attempt : null;
    insertStatement(ctx.db).run(id, ...cols, req.slot, req.toolId, req.tier, digest, mappingDigest, key, nodeAttempt, req.audit.providerAttempt, req.audit.callId, req.audit.ownerId, req.audit.generation, now, now);
}
function insertStatement(db) {
    return stmt(db, `INSERT INTO run_effects (id, scope_kind, run_id, node_id, session_id, turn, slot, tool_id, tier, state, args_digest,
       output_mapping_digest, idempotency_key, node_attempt, provider_attempt, call_id, owner_id, generation, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'prepared', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
}
function nextRowId(db) {
    const row = stmt(db, 'SELECT coalesce(max(id), 0) + 1 AS next FROM run_effects').get();
    return row.next;
}
// The identity index's own expressions, so the lookup is one probe of the UNIQUE index (never IS on parameters):
// an index on (run_id, node_id) alone would scan every slot of the node.
function findByIdentity(db, scope, slot, toolId) {
    if (scope.kind === 'run') {
        return stmt(db, `SELECT * FROM run_effects WHERE scope_kind = 'run' AND coalesce(run_id, '') = ? AND coalesce(node_id, '') = ?
         AND coalesce(session_id, '') = '' AND coalesce(turn, -1) = -1 AND slot = ? AND tool_id = ?`).get(scope.runId, scope.nodeId, slot, toolId);
    }
    return stmt(db, `SELECT * FROM run_effects WHERE scope_kind = 'session' AND coalesce(run_id, '') = '' AND coalesce(node_id, '') = ''
       AND coalesce(session_id, '') = ? AND coalesce(turn, -1) = ? AND slot = ? AND tool_id = ?`).get(scope.sessionId, scope.turn, slot, toolId);
}
function refuse(code, effectId, message) {
    return { verdict: 'refuse', code, effectId, message };
}
//# sourceMappingURL=prepare.js.map