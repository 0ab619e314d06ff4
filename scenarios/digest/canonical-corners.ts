// §11's v5 digest in the corners where canonical JSON serializers disagree: key order by UTF-16 code unit (not code
// point or UTF-8 bytes), ECMAScript number forms, and strings escaped only where JSON must (no HTML-safe or ASCII escapes).
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { callPrepare, defaultCall, snapshotAfter } from '../support.js';
import { expectedProjection } from './persisted-form.js';
import { expectDigest } from './digest-check.js';

// Each projection has one reading (no credential-shaped key or value), so the harness computes the exact digest itself.
const CORNERS: ReadonlyArray<{ readonly name: string; readonly args: Record<string, unknown> }> = [
  // U+1F600 is D83D DE00 in UTF-16 (before U+FF5E), but after it by code point and by UTF-8 bytes.
  { name: 'astral and high-BMP keys', args: { '\u{1F600}': 1, '\uFF5E': 2, '\uE000': 3, z: 4, '': 5 } },
  { name: 'astral keys nested', args: { outer: { '\u{1F680}x': [1], '\uFFFD': [2] }, list: [{ '\u{10000}': true, '\uF900': false }] } },
  { name: 'numbers in exponent form', args: { tiny: 1e-7, small: 0.00001, edge: 0.000001, big: 1e21, huge: 1.5e300, neg: -0.000025, least: 5e-324 } },
  { name: 'numbers in plain form', args: { frac: 123456789.125, wide: 9007199254740994, round: 100, neg: -12.5 } },
  { name: 'characters HTML-safe encoders escape', args: { note: 'a<b>&c', sep: 'line\u2028para\u2029end', mix: '<&>' } },
  { name: 'control and non-ASCII characters', args: { ctl: 'tab\there\u0001\u001f\u007f', uni: 'e\u0301 \u00e9 \u4e2d \u{1F642}', q: 'back\\slash "q"' } },
];

export const edgeDigest: Scenario[] = [
  defineScenario({
    id: 'digest.canonical-corners',
    title: 'The v5 digest is over RFC 8785 canonical JSON in its corners: UTF-16 key order, ECMAScript numbers, minimal escapes',
    spec: 'effect-journal §11 ("SHA-256 over a canonical JSON serialization (sorted keys, no insignificant whitespace)"), docs/protocol.md (keys sorted by UTF-16 code unit)',
    tags: ['run', 'digest'],
    needs: [],
    description:
      'Prepares one effect per corner whose redacted projection is unambiguous: keys that sort differently by UTF-16 code unit than by code point or UTF-8 bytes, numbers whose ECMAScript form differs from other languages\' defaults, ' +
      'and strings holding characters some encoders escape (<, >, &, U+2028) or normalize. The harness computes each expected digest itself (JSON.stringify per value, keys sorted by code unit).',
    asserts: CORNERS.map((c) => `the argsDigest of "${c.name}" equals v5: + SHA-256 of its canonical JSON`),
    async trial(t) {
      const client = await t.driver();
      const runId = t.rng.id('run');
      const ids: string[] = [];
      for (const [i, c] of CORNERS.entries()) {
        const verdict = await client.op('prepare', callPrepare(t, { kind: 'run', runId, nodeId: `node-${i}`, attempt: 1 }, defaultCall({ args: c.args, secretArgKeys: [] })));
        ids.push(verdict.verdict === 'proceed' ? verdict.effectId : `refused:${verdict.verdict}`);
      }
      const all = await snapshotAfter(t, client);
      for (const [i, c] of CORNERS.entries()) {
        await expectDigest(t, client, `argsDigest of "${c.name}"`, expectedProjection(c.args, []), { args: c.args, secretArgKeys: [] }, all.find((r) => r.effectId === ids[i])?.argsDigest.toLowerCase() ?? null);
      }
    },
  }),
];
