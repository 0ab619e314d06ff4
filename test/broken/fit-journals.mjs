// Deliberately broken journals for the checks a real store exposed (`--impl-option defect=<name>`): the persisted
// digest form, legacy digests, tier-1 keys, a harness-side gate, chunk sizes, discard and disclosure shapes.
import { JournalError } from '../../dist/harness/journal-interface.js';
import { wrapReference } from '../fixtures/wrap-reference.mjs';

const bareHex = (row) => ({ ...row, argsDigest: row.argsDigest.replace(/^v5:/, '') });

export const FIT_DEFECTS = {
  // Persists the bare SHA-256 hex without the v5: version prefix: its rows read as legacy digests (§11).
  'digest-plain-hex': (j) => ({
    overrides: {
      listEffects: () => ({ effects: j.listEffects().effects.map(bareHex) }),
      sessionRead(p) {
        const out = j.sessionRead(p);
        return { ...out, effects: out.effects.map(bareHex) };
      },
      resolve: (p) => bareHex(j.resolve(p)),
    },
  }),
  // Accepts a legacy digest prefix as if it were current: an older writer's row replays its stored result.
  'legacy-digest-replays': (j, ctx) => ({
    overrides: {
      prepare(p) {
        const v = j.prepare(p);
        if (v.verdict !== 'refuse' || v.code !== 'legacy_digest' || v.effectId === null) return v;
        const row = ctx.rows().find((r) => String(r.id) === v.effectId);
        return row?.result_json ? { verdict: 'replay', effectId: v.effectId, result: JSON.parse(row.result_json) } : v;
      },
    },
  }),
  // Hands out no idempotency key, even for tier 1: a tier-1 retry has nothing to reuse.
  'tier1-without-key': (j) => ({
    overrides: {
      prepare(p) {
        const v = j.prepare(p);
        return v.verdict === 'proceed' ? { ...v, idempotencyKey: null } : v;
      },
      gate(p) {
        const d = j.gate(p);
        return { ...d, effects: d.effects.map((e) => ({ ...e, idempotencyKey: null })) };
      },
    },
  }),
  // Has no gate of its own, and its row read swallows the injected read failure: the harness-side gate sees no rows.
  'engine-gate-read-swallowed': (j) => {
    let readFails = false;
    return {
      capabilities: (caps) => ({ ...caps, gate: 'harness' }),
      overrides: {
        gate() {
          throw new JournalError('unsupported', 'this store has no gate');
        },
        listEffects: () => (readFails ? { effects: [] } : j.listEffects()),
        fault(p) {
          if (p.fault !== 'gate_read_fails') return j.fault(p);
          readFails = p.enabled;
          return undefined;
        },
      },
    };
  },
  // Announces a chunk size far below its real one: multi-chunk scenarios never see a second chunk.
  'understates-chunk-size': () => ({ capabilities: (caps) => ({ ...caps, sweepChunkSize: 1 }), overrides: {} }),
  // A discard is recorded, but the identity stays taken: the node can never run again.
  'discard-never-reruns': (j, ctx) => ({
    overrides: {
      prepare(p) {
        const held = p.correlation.kind === 'run' && ctx.rows().find((r) => r.scope_kind === 'run' && r.run_id === p.correlation.runId && r.node_id === p.correlation.nodeId && r.slot === p.slot && r.tool_id === p.toolId && r.resolution === 'discarded');
        return held ? { verdict: 'refuse', code: 'duplicate_identity', effectId: String(held.id), message: 'the identity is taken' } : j.prepare(p);
      },
    },
  }),
  // Names each disclosure by an address, but the address of the wrong row (the session's first one).
  'disclosure-wrong-address': (j) => ({
    overrides: {
      sessionRead(p) {
        const out = j.sessionRead(p);
        const first = out.effects[0];
        const disclosures = out.disclosures.map((d) => ({ scope: first.scope, slot: first.slot, toolId: first.toolId, state: first.state, reason: d.reason }));
        return { ...out, disclosures };
      },
    },
  }),
  // Discloses every committed row it cannot prove complete as `unresolved`: a state the row is not in.
  'committed-disclosed-as-unresolved': (j) => ({
    overrides: {
      sessionRead(p) {
        const out = j.sessionRead(p);
        return { ...out, disclosures: out.disclosures.map((d) => ({ ...d, reason: 'unresolved' })) };
      },
    },
  }),
};

const REFERENCE_OPTIONS = { 'understates-chunk-size': { sweepChunkSize: 50 } };

/** The adapter: the reference journal with the defect named by `--impl-option defect=…`. */
export function createJournal(options) {
  const name = options.options.defect;
  const defect = FIT_DEFECTS[name];
  if (!defect) throw new JournalError('unsupported', `unknown defect ${JSON.stringify(name)}; known: ${Object.keys(FIT_DEFECTS).join(', ')}`);
  return wrapReference(options, `broken:${name}`, defect, REFERENCE_OPTIONS[name] ?? {});
}
