// The two judgements the store makes: what a prepare of an existing identity answers (§4, §11), and what a
// resumed session must disclose (§8).

const LEGACY_PLACEHOLDERS = new Set(['legacy:session', 'legacy:home', 'legacy:agent-run']);
const KEYS = ['modelValue', 'truncated', 'summary', 'outputMappingResult'];

/** The verdict for a prepare whose identity a row already holds. */
export function judgeExisting(row, digest, mapping) {
  const refuse = (code, message) => ({ verdict: 'refuse', code, effectId: row.effectId, message });
  if (row.scope.kind === 'session') {
    return row.state === 'committed' ? refuse('session_never_replays', 'a session effect is never replayed') : refuse('duplicate_identity', 'an earlier attempt of this session effect exists');
  }
  // Unversioned, v2:, v3: and v4: digests cannot prove their projection: refused, never replayed (§11).
  if (!row.argsDigest.startsWith('v5:')) return refuse('legacy_digest', 'the row carries a legacy args digest');
  if (row.state !== 'committed' && row.resolution?.decision !== 'accepted') return refuse('duplicate_identity', `an unresolved (${row.state}) effect holds this identity`);
  if (row.argsDigest !== digest) return refuse('args_mismatch', 'the arguments differ from the recorded effect at this slot');
  if (row.mappingDigest !== mapping) return refuse('output_mapping_changed', 'the output-mapping configuration differs from the one the effect ran under');
  if (row.resultText === null) return refuse('result_not_retained', 'the effect committed but its result was not retained');
  const result = parseResult(row.resultText);
  return result ? { verdict: 'replay', effectId: row.effectId, result } : refuse('result_corrupt', 'the stored result is unreadable');
}

/** Disclosures named by effect address and state (no row id needed), joined against the whole transcript history. */
export function sessionDisclosures(sessionRows, transcript) {
  const sightings = new Map();
  for (const turn of transcript) for (const call of turn.calls) sightings.set(call.callId, [...(sightings.get(call.callId) ?? []), { toolName: call.toolName, status: turn.status }]);
  return sessionRows.flatMap((row) => {
    const reason = reasonFor(row, sightings.get(row.attempt.callId) ?? []);
    return reason === null ? [] : [{ scope: row.scope, slot: row.slot, toolId: row.toolId, state: row.state, reason }];
  });
}

function reasonFor(row, seen) {
  if (row.state !== 'committed') return 'unresolved';
  // A committed negative-slot ! command is not a model turn: silent.
  if (row.slot < 0) return null;
  if (LEGACY_PLACEHOLDERS.has(row.attempt.callId)) return 'legacy';
  if (seen.length > 1 || (seen.length === 1 && seen[0].toolName !== row.toolId)) return 'unattributable';
  if (seen.length === 1 && seen[0].status === 'completed') return null;
  return 'turn_incomplete';
}

function parseResult(text) {
  try {
    const r = JSON.parse(text);
    const ok = r && typeof r.modelValue === 'string' && typeof r.truncated === 'boolean' && typeof r.summary === 'string' && KEYS.every((k) => k in r);
    return ok ? Object.fromEntries(KEYS.map((k) => [k, r[k]])) : null;
  } catch {
    return null;
  }
}
