// The tier made part of the unique key (scope, slot, tool and tier): the same effect prepared again under another tier
// (a registry that reclassified the tool between the crash and the resume) is a fresh row that proceeds, and the
// effect runs twice. §2: "EffectIdentity: EffectCorrelation with attempt dropped, plus EffectSlot, plus toolId".
import { journal, referenceWith } from './journal-base.mjs';

const createReferenceJournal = await referenceWith();
const SEP = '\u241ftier';

export function createJournal(options) {
  return journal(createReferenceJournal, 'tier-in-identity', options, (j) => {
    const keyed = (toolId, tier) => `${toolId}${SEP}${tier}`;
    // Every answer names the tool as the engine knows it.
    const plain = (v) => {
      if (Array.isArray(v)) return v.map(plain);
      if (v === null || typeof v !== 'object') return v;
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'toolId' && typeof x === 'string' && x.includes(SEP) ? x.slice(0, x.indexOf(SEP)) : plain(x)]));
    };
    const stored = (effectId) => j.listEffects().effects.find((r) => r.effectId === effectId)?.toolId;
    const out = {};
    for (const op of ['settle', 'gate', 'reconcile', 'resolve', 'runTerminal', 'listEffects', 'checkpoint']) out[op] = (p) => plain(j[op](p));
    return {
      ...out,
      prepare: (p) => plain(j.prepare({ ...p, toolId: keyed(p.toolId, p.tier) })),
      seed: (p) => j.seed({ rows: p.rows.map((r) => ({ ...r, toolId: keyed(r.toolId, r.tier) })) }),
      sessionSweep: (p) => plain(j.sessionSweep({ ...p, captured: p.captured.map((c) => ({ ...c, toolId: stored(c.effectId) ?? c.toolId })) })),
      // The transcript names tools plainly; the read matches them against the stored (keyed) names.
      sessionRead(p) {
        const rows = j.listEffects().effects.filter((r) => r.scope.kind === 'session' && r.scope.sessionId === p.sessionId);
        const transcript = p.transcript.map((turn) => ({ ...turn, calls: turn.calls.map((c) => ({ ...c, toolName: rows.find((r) => r.attempt.callId === c.callId && r.toolId.startsWith(`${c.toolName}${SEP}`))?.toolId ?? c.toolName })) }));
        return plain(j.sessionRead({ ...p, transcript }));
      },
    };
  });
}
