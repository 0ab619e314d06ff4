// The dimensions profile (`ejc explore --profile dimensions`): ids drawn from one pool across runs, sessions and nodes,
// and public values a journal might take for secrets. Drawn after the base case and the
// widening, and only in this profile, so the other profiles' seed streams stay what they were.
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import type { CallPlan, TrialCase } from './case.js';

export interface Dimensions {
  /** Sessions take the runs' ids, and a run's second node is named like a turn ("0", "1"). */
  readonly sharedIds: boolean;
  /** Every run call gains public members that look random (hex, base64, a UUID) and an own `__proto__` member. */
  readonly lookalikes: number | null;
}

/**
 * The arbitrary of the dimensions, each on in about half of the trials. Scale is not here: a generated node of 300
 * calls with its kills and restarts ran past ten minutes on a loaded machine; gate.scale.* carries it as a fixed workload.
 */
export const dimensions: fc.Arbitrary<Dimensions> = fc.record({
  sharedIds: fc.boolean(),
  lookalikes: fc.option(fc.nat(999), { nil: null }),
});

/** The case with the dimensions applied (only where it has what each needs: sessions, a second node, a run). */
export function withDimensions(c: TrialCase, d: Dimensions | null): TrialCase {
  if (d === null) return c;
  let runs = c.runs;
  let sessions = c.sessions;
  if (d.sharedIds) {
    sessions = sessions.map((s, i) => runs[i % Math.max(1, runs.length)]?.runId ?? s).filter((s, i, all) => all.indexOf(s) === i);
    runs = runs.map((r) => ({ ...r, nodes: r.nodes.map((n, i) => (i === 1 && !r.nodes.some((m) => m.nodeId === String(i - 1)) ? { ...n, nodeId: String(i - 1) } : n)) }));
  }
  if (d.lookalikes !== null) {
    const seed = d.lookalikes;
    runs = runs.map((r) => ({ ...r, nodes: r.nodes.map((n) => ({ ...n, calls: n.calls.map((k, i) => lookalike(k, `${seed}-${i}`)) })) }));
  }
  return { ...c, runs, sessions };
}

// Members a journal might mask as "probably a key" or drop as a language-special name: all public (§11).
function lookalike(k: CallPlan, seed: string): CallPlan {
  const hex = createHash('sha256').update(seed).digest('hex');
  const values: Array<readonly [string, unknown]> = [
    ['digest', hex],
    ['blob', createHash('sha512').update(seed).digest('base64')],
    ['ref', `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`],
    ['__proto__', { level: hex.length % 7 }],
  ];
  const args: Record<string, unknown> = {};
  for (const [key, value] of [...Object.entries(k.args.args), ...values]) Object.defineProperty(args, key, { value, enumerable: true, writable: true, configurable: true });
  return { ...k, args: { args, secretArgKeys: k.args.secretArgKeys } };
}
