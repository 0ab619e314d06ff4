// The widened inputs (harness/explore/arb-widen.ts) on their own (pure, no processes): what they generate and that the model masks it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasLoneSurrogate } from '../../shared/canonical-json.js';
import { argsTemplate } from '../../harness/explore/arb-args.js';
import { trialCase } from '../../harness/explore/arb-case.js';
import { ESCAPED, sibling, widen, widening } from '../../harness/explore/arb-widen.js';
import type { CallPlan, Features, TrialCase } from '../../harness/explore/case.js';
import { mutatePublic, reorder, rotate } from '../../harness/explore/transform.js';
import { sameCall } from '../../harness/model/projection.js';
import { SECRET } from '../../harness/explore/canaries.js';

const FEATURES: Features = {
  tierMode: 'conservative', sessions: true, seeding: true, outerTransactionProbe: true, faults: ['gate_read_fails', 'settle_write_fails'],
  points: ['prepare.before-commit', 'settle.after-commit'], strace: false, faketime: false, kxm: true, resolution: true,
};

function cases(n: number): TrialCase[] {
  return fc.sample(trialCase(FEATURES), { seed: 7, numRuns: n });
}

function callsOf(c: TrialCase): CallPlan[] {
  const turns = c.steps.flatMap((s) => (s.act.kind === 'turn' || s.act.kind === 'turn-race' ? s.act.turn.calls : []));
  return [...c.runs.flatMap((r) => r.nodes.flatMap((n) => n.calls)), ...turns];
}

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => strings(v, out));
  else if (value !== null && typeof value === 'object') {
    for (const k of Object.keys(value)) {
      out.push(k);
      strings((value as Record<string, unknown>)[k], out);
    }
  }
  return out;
}

describe('generated arguments are I-JSON', () => {
  it('no call, re-run variation or public change holds a lone surrogate (docs/protocol.md: the harness never sends one)', () => {
    const templates = [...fc.sample(argsTemplate, { seed: 11, numRuns: 1500 }), ...cases(30).flatMap((c) => callsOf(c).map((k) => k.args))];
    let astral = 0;
    for (const { args, secretArgKeys } of templates) {
      astral += strings(args).filter((x) => /[\uD800-\uDBFF][\uDC00-\uDFFF]$/.test(x)).length;
      const variants = [args, reorder(args), rotate(args), ...Array.from({ length: 24 }, (_, m) => mutatePublic(args, secretArgKeys, m))];
      for (const v of variants) expect(strings(v).filter(hasLoneSurrogate)).toEqual([]);
    }
    // Strings that end in a surrogate pair are there to be cut: the check is not vacuous.
    expect(astral).toBeGreaterThan(5);
  });

  it('changes a string ending in an astral character by its whole last code point', () => {
    const changed = mutatePublic({ note: 'ab🙂' }, [], 0);
    expect(changed['note']).toBe('abZ');
    expect(hasLoneSurrogate(changed['note'] as string)).toBe(false);
  });
});

describe('the widening', () => {
  it('makes sibling ids that differ only in case, by a suffix, a trailing space or the normalization form', () => {
    expect(sibling('r1', 'case')).toBe('R1');
    expect(sibling('RUN-7', 'case')).toBe('run-7');
    expect(sibling('01', 'case')).toBe('01-2');
    expect(sibling('r1', 'suffix')).toBe('r1-2');
    expect(sibling('r1', 'space')).toBe('r1 ');
    expect(sibling('ré', 'normalization')).toBe('re\u0301');
    expect(sibling('re\u0301', 'normalization')).toBe('ré');
  });

  it('leaves the base case alone when it draws nothing', () => {
    const [c] = fc.sample(trialCase(FEATURES), { seed: 3, numRuns: 1 });
    expect(widen(c!, { siblings: null, twins: null, escaped: null, kxm: [], request: null, longLived: null })).toEqual(c);
  });

  it('reaches every dimension within a few dozen cases', () => {
    const seen = { siblingRuns: 0, twins: 0, escaped: 0, subSecond: 0, retryAfterCancel: 0, requestUrl: 0, longLivedPrepare: 0, longLivedResolve: 0, longLivedFinish: 0 };
    for (const c of cases(80)) {
      const ids = c.runs.map((r) => r.runId);
      if (ids.some((a) => ids.some((b) => a !== b && (a.toLowerCase() === b.toLowerCase() || a.trim() === b.trim() || `${a}-2` === b || a.normalize('NFC') === b.normalize('NFC'))))) seen.siblingRuns++;
      const tier1 = c.runs.flatMap((r) => r.nodes.flatMap((n) => n.calls)).filter((k) => k.tier === 1);
      if (tier1.some((a) => tier1.some((b) => a !== b && a.toolId === b.toolId && a.args === b.args))) seen.twins++;
      if (callsOf(c).some((k) => ESCAPED.includes(k.args.args['escapedLink'] as string))) seen.escaped++;
      if (c.runs.some((r) => r.nodes.some((n) => n.calls.some((k) => k.slot === n.timeoutSlot && String(k.args.args['url']).includes(SECRET))))) seen.requestUrl++;
      for (const s of c.steps) {
        if (s.act.kind === 'long-lived') seen[`longLived${s.act.change === 'prepare' ? 'Prepare' : s.act.change === 'resolve' ? 'Resolve' : 'Finish'}`]++;
        if (s.act.kind !== 'kxm' || !s.act.plan.clock) continue;
        if (s.act.plan.clock.at % 1000 !== 0 || s.act.plan.clock.expiries.some((d) => d % 1000 !== 0)) seen.subSecond++;
        if (s.act.plan.cancel === 'before-recovery' && s.act.plan.resolve?.action === 'confirm_absent_retry') seen.retryAfterCancel++;
      }
    }
    for (const [dimension, n] of Object.entries(seen)) expect(n, dimension).toBeGreaterThan(0);
  });

  it('plants escaped secrets the model masks: a rotated canary is the same call (or either, under an escaped name), a changed public value is not', () => {
    for (const shape of ESCAPED) {
      const a = { link: shape.replace(SECRET, 'EJC-CANARY-axZ') };
      const b = { link: shape.replace(SECRET, 'EJC-CANARY-bxZ') };
      // An escaped parameter name is masked only by a detector that decodes names first, which §11 does not demand.
      expect(sameCall({ args: a, secretArgKeys: [] }, { args: b, secretArgKeys: [] }), shape).toBe(shape.includes('%5Ftoken') ? 'either' : 'same');
      expect(sameCall({ args: a, secretArgKeys: [] }, { args: { link: a.link.replace('page', 'pages') }, secretArgKeys: [] }), shape).toBe('different');
    }
  });

  it('draws every field from its own arbitrary', () => {
    const [w] = fc.sample(widening, { seed: 1, numRuns: 1 });
    expect(Object.keys(w!).sort()).toEqual(['escaped', 'kxm', 'longLived', 'request', 'siblings', 'twins']);
  });
});
