// The values a journal generates (effect ids, idempotency keys, resolution times), named by what the harness decided.
import type { EffectRow } from '../shared/protocol/schemas.js';
import type { Trial } from './schema.js';

/**
 * Each journal-generated value a trial's rows carry, mapped to a name the harness decided: `<effect id of ADDR>`,
 * `<key of ADDR>` (ADDR: the row's scope, slot and tool) and `<resolution time>`. A journal that draws its ids or keys
 * at random (allowed: §2 asks only that a key be generated once and kept) then gets the same outcome view on every run.
 */
export function generatedNames(trials: ReadonlyArray<Pick<Trial, 'effectsBefore' | 'effectsAfter'>>): Map<string, string> {
  const rows = trials.flatMap((t) => [...(t.effectsBefore ?? []), ...(t.effectsAfter ?? [])]);
  const named = rows.map((r) => ({ r, addr: address(r) })).sort((a, b) => (a.addr < b.addr ? -1 : a.addr > b.addr ? 1 : 0));
  const names = new Map<string, string>();
  for (const { r, addr } of named) {
    if (!names.has(r.effectId)) names.set(r.effectId, `<effect id of ${addr}>`);
    if (r.idempotencyKey !== null && r.idempotencyKey !== undefined && !names.has(r.idempotencyKey)) names.set(r.idempotencyKey, `<key of ${addr}>`);
    if (r.resolution !== null && r.resolution !== undefined && !names.has(r.resolution.at)) names.set(r.resolution.at, '<resolution time>');
  }
  return names;
}

/** `value` with every generated value replaced by its name: whole strings always, inside text when long enough to be unmistakable. */
export function withGeneratedNamed<T>(value: T, names: ReadonlyMap<string, string>): T {
  if (names.size === 0) return value;
  const inText = [...names].filter(([v]) => v.length >= MIN_IN_TEXT).sort((a, b) => b[0].length - a[0].length);
  const visit = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const whole = names.get(v);
      if (whole !== undefined) return whole;
      let out = v;
      for (const [raw, name] of inText) if (out.includes(raw)) out = out.split(raw).join(name);
      return out;
    }
    if (Array.isArray(v)) return v.map(visit);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, visit(x)]));
    return v;
  };
  return visit(value) as T;
}

// Shorter values (a journal counting ids 1, 2, 3) would match inside unrelated text; those are deterministic anyway.
const MIN_IN_TEXT = 6;

function address(r: EffectRow): string {
  const scope = r.scope.kind === 'run' ? `run ${r.scope.runId}/${r.scope.nodeId}` : `session ${r.scope.sessionId}/turn ${r.scope.turn}`;
  return `${scope} slot ${r.slot} ${r.toolId}`;
}
