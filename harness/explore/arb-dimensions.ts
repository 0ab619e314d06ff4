// The dimensions profile (`ejc explore --profile dimensions`): ids drawn from one pool across runs, sessions and nodes,
// public values a journal might take for secrets, and a node with hundreds of calls. Drawn after the base case and the
// widening, and only in this profile, so the other profiles' seed streams stay what they were.
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import type { CallPlan, RunPlan, TrialCase } from './case.js';

export interface Dimensions {
  /** Sessions take the runs' ids, and a run's second node is named like a turn ("0", "1"). */
  readonly sharedIds: boolean;
  /** Every run call gains public members that look random (hex, base64, a UUID) and an own `__proto__` member. */
  readonly lookalikes: number | null;
  /** The first node of the first run is widened to this many calls (past a 256-row page). */
  readonly wide: number | null;
}

/** The arbitrary of the dimensions, each on in about half of the trials (the wide node in a quarter: it is the dear one). */
export const dimensions: fc.Arbitrary<Dimensions> = fc.record({
  sharedIds: fc.boolean(),
  lookalikes: fc.option(fc.nat(999), { nil: null }),
  wide: fc.option(fc.integer({ min: 257, max: 300 }), { nil: null, freq: 4 }),
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
  if (d.wide !== null && runs.length > 0) {
    const [first, ...rest] = runs;
    runs = [widened(first!, d.wide), ...rest];
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

// The node's calls repeated at fresh slots until it has `n`: a gate, listing or sweep reading a page misses the tail.
function widened(run: RunPlan, n: number): RunPlan {
  const [node, ...others] = run.nodes;
  if (node === undefined || node.calls.length === 0) return run;
  const base = node.calls;
  const top = Math.max(...base.map((k) => k.slot));
  const more = Array.from({ length: Math.max(0, n - base.length) }, (_, i): CallPlan => ({ ...base[i % base.length]!, slot: top + 1 + i, padding: 0, rerun: ['same'] }));
  return { ...run, nodes: [{ ...node, calls: [...base, ...more] }, ...others] };
}
