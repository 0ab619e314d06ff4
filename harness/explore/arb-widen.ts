// Input dimensions drawn after the base case: sibling ids, twin tier-1 calls, escaped secrets, KXM instants in milliseconds.
// They are drawn after it (one fc.tuple), so a seed's base trial is what it was before they existed and only what they
// change about it differs: test/explore/bites-catches.json names trials by their index in the seed stream.
import fc from 'fast-check';
import type { ArgsTemplate } from './arb-args.js';
import { SECRET } from './canaries.js';
import type { CallPlan, RunPlan, Step, TrialCase, TurnPlan } from './case.js';
import type { KxmClock, KxmPlan } from '../kxm/explore-activity.js';

/** How two ids differ that must still be two scopes (§2, docs/protocol.md gate: "the scope matches exactly"). */
export type SiblingForm = 'case' | 'suffix' | 'space' | 'normalization';

export interface Widening {
  /** Two runs, nodes of one run, or sessions whose ids differ only in case, by a suffix, a trailing space or NFC/NFD. */
  readonly siblings: { readonly of: 'run' | 'node' | 'session'; readonly form: SiblingForm; readonly pick: number } | null;
  /** Two run calls made tier 1 with the same tool and equal arguments at distinct identities: their keys must differ. */
  readonly twins: { readonly from: number; readonly to: number } | null;
  /** A secret added to every call's arguments, percent-escaped inside a URL or JSON-encoded in a string (ESCAPED). */
  readonly escaped: number | null;
  /** Millisecond instants for the trial's KXM activities, in order (the k-th one takes the k-th, cycling). */
  readonly kxm: ReadonlyArray<{ readonly clock: KxmClock; readonly retryAfterCancel: boolean }>;
  /**
   * Every http_request call shaped as a real request: `method` and a `url` holding a secret (REQUEST_URLS) at the top,
   * where a journal's helpful note or audit line reads them; with `timeout`, the first one of a run's node never answers.
   */
  readonly request: { readonly url: number; readonly timeout: boolean } | null;
  /** At step `at` (modulo), a second long-lived driver changes a run's rows between two reads of the primary. */
  readonly longLived: { readonly run: number; readonly change: 'prepare' | 'resolve' | 'finish'; readonly at: number } | null;
}

/** Request URLs carrying a secret in userinfo or in a credential query value (plainly, or escaped: ESCAPED). */
export const REQUEST_URLS: readonly string[] = [
  `https://svc:${SECRET}@payments.invalid/charge?page=2`,
  `https://payments.invalid/charge?page=2&access_token=${SECRET}`,
];

/**
 * Secrets in encodings a detector must see through (§11: a recognized value "must not leave a credential suffix"):
 * escapes inside a credential query value, an escaped parameter name (the same parameter to any URL parser), escaped
 * '@' and ':' in userinfo (masked through the last '@'), a JSON request body with a credential member, its value
 * holding an escaped quote.
 */
export const ESCAPED: readonly string[] = [
  `https://api.invalid/v1/items?page=2&access_token=Zm9v%2B${SECRET}%2F%3D&z=2`,
  `https://api.invalid/v1/items?page=2&access_token=Zm9v%26${SECRET}%25&z=2`,
  `https://api.invalid/v1/items?page=2&access%5Ftoken=${SECRET}&z=2`,
  `https://svc:p%40ss%3A${SECRET}@api.invalid/v1/x?page=2`,
  `{"user":"svc","password":"${SECRET}","page":2}`,
  `{"token":"a\\"${SECRET}\\\\","page":2}`,
];

// Lease ends relative to the dispatch: at or before it (expired) or after it, a millisecond to a minute away, so a
// journal that keeps whole seconds, rounds, or compares the wrong way round decides one of them wrongly.
const EXPIRY = fc.constantFrom(0, 1, 250, 399, 601, 999, 1000, 1001, 60_000);

/** The arbitrary of the widening, drawn after the base case. */
export const widening: fc.Arbitrary<Widening> = fc.record({
  siblings: fc.option(fc.record({ of: fc.constantFrom('run' as const, 'run' as const, 'node' as const, 'session' as const), form: fc.constantFrom<SiblingForm>('case', 'case', 'suffix', 'space', 'normalization'), pick: fc.nat(99) }), { nil: null, freq: 2 }),
  twins: fc.option(fc.record({ from: fc.nat(99), to: fc.nat(99) }), { nil: null, freq: 2 }),
  escaped: fc.option(fc.nat(ESCAPED.length - 1), { nil: null, freq: 2 }),
  kxm: fc.array(
    fc.record({
      clock: fc.record({ at: fc.constantFrom(0, 1, 400, 999), expiries: fc.array(EXPIRY, { minLength: 1, maxLength: 5 }), recoverIn: fc.constantFrom(300, 600, 1000, 1400) }),
      retryAfterCancel: fc.constantFrom(false, false, false, true),
    }),
    { maxLength: 2 },
  ),
  request: fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.record({ url: fc.nat(REQUEST_URLS.length + 3), timeout: fc.boolean() }) }),
  // Drawn last: the draws above stay what they were for every seed.
  // In most trials (a driver start each): another worker's prepare most often, an operator's resolution, a run finished elsewhere.
  longLived: fc.oneof(
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 4, arbitrary: fc.record({ run: fc.nat(3), change: fc.constantFrom('prepare' as const, 'prepare' as const, 'resolve' as const, 'finish' as const, 'finish' as const), at: fc.nat(99) }) },
  ),
});

/**
 * In half the trials, an operator resolves the unresolved rows of a session after a turn that left some (unsettled or
 * timed out; `pick` chooses among such turns), and after the resume that follows it if one does: what a read then
 * discloses and captures of them, and what its sweep removes, is checked. Drawn after every other part of the case, so
 * a seed's trials are what they were but for the added step.
 */
export const sessionOperator: fc.Arbitrary<{ readonly pick: number } | null> = fc.option(fc.record({ pick: fc.nat(3) }), { nil: null, freq: 2 });

/** The case with a resolve-session step after the chosen turn that left rows unresolved (and its next resume), if any. */
export function withSessionOperator(c: TrialCase, o: { readonly pick: number } | null): TrialCase {
  if (o === null) return c;
  const turns = c.steps.flatMap((s, i) => ((s.act.kind === 'turn' || s.act.kind === 'turn-race') && s.act.turn.unsettled.length + s.act.turn.timeouts.length > 0 ? [[i, s.act.session] as const] : []));
  if (turns.length === 0) return c;
  const [at, session] = turns[o.pick % turns.length]!;
  const resume = c.steps.findIndex((s, i) => i > at && s.act.kind === 'resume' && s.act.session === session);
  const after = resume < 0 ? at : resume;
  return { ...c, steps: [...c.steps.slice(0, after + 1), { act: { kind: 'resolve-session', session }, kill: null }, ...c.steps.slice(after + 1)] };
}

/** The base case with the widening applied (only where the case has what it needs: two runs, two calls, a KXM step). */
export function widen(c: TrialCase, w: Widening): TrialCase {
  let runs = c.runs;
  let sessions = c.sessions;
  if (w.siblings?.of === 'run') runs = siblingRuns(runs, w.siblings.form, w.siblings.pick);
  if (w.siblings?.of === 'node') runs = runs.map((r, i) => (i === w.siblings!.pick % runs.length ? siblingNodes(r, w.siblings!.form) : r));
  if (w.siblings?.of === 'session' && sessions.length >= 2) sessions = renamed(sessions, 1, sibling(sessions[0]!, w.siblings.form));
  if (w.twins) runs = twinCalls(runs, w.twins.from, w.twins.to);
  if (w.request) runs = requestShaped(runs, w.request.url, w.request.timeout);
  if (w.escaped !== null) runs = runs.map((r) => ({ ...r, nodes: r.nodes.map((n) => ({ ...n, calls: n.calls.map((k) => withEscaped(k, w.escaped!)) })) }));
  let k = 0;
  const steps = c.steps.map((s): Step => {
    if (s.act.kind === 'turn' && w.escaped !== null) return { ...s, act: { ...s.act, turn: escapedTurn(s.act.turn, w.escaped) } };
    if (s.act.kind === 'turn-race' && w.escaped !== null) return { ...s, act: { ...s.act, turn: escapedTurn(s.act.turn, w.escaped) } };
    if (s.act.kind !== 'kxm' || w.kxm.length === 0) return s;
    const timing = w.kxm[k++ % w.kxm.length]!;
    return { ...s, act: { kind: 'kxm', plan: timed(s.act.plan, timing.clock, timing.retryAfterCancel) } };
  });
  // Anywhere: before a paused run's rest, the other process can finish it; after every start, any run can be read.
  if (w.longLived === null) return { runs, sessions, steps };
  const { at, ...act } = w.longLived;
  const where = at % (steps.length + 1);
  return { runs, sessions, steps: [...steps.slice(0, where), { act: { kind: 'long-lived', ...act }, kill: null }, ...steps.slice(where)] };
}

/** An id its sibling form changes: the case of its letters, a suffix, a trailing space, or its normalization form. */
export function sibling(id: string, form: SiblingForm): string {
  if (form === 'normalization' && id.normalize('NFD') !== id.normalize('NFC')) return id === id.normalize('NFC') ? id.normalize('NFD') : id.normalize('NFC');
  if (form === 'suffix') return `${id}-2`;
  if (form === 'space') return `${id} `;
  const flipped = id === id.toLowerCase() ? id.toUpperCase() : id.toLowerCase();
  return flipped === id ? `${id}-2` : flipped;
}

// A later run takes the sibling of an earlier one's id (whichever starts first, the other may still be resumable).
function siblingRuns(runs: readonly RunPlan[], form: SiblingForm, pick: number): readonly RunPlan[] {
  if (runs.length < 2) return runs;
  const to = 1 + (pick % (runs.length - 1));
  const id = sibling(runs[pick % to]!.runId, form);
  return runs.some((r) => r.runId === id) ? runs : runs.map((r, i) => (i === to ? { ...r, runId: id } : r));
}

function siblingNodes(run: RunPlan, form: SiblingForm): RunPlan {
  if (run.nodes.length < 2) return run;
  const id = sibling(run.nodes[0]!.nodeId, form);
  return run.nodes.some((n) => n.nodeId === id) ? run : { ...run, nodes: run.nodes.map((n, i) => (i === 1 ? { ...n, nodeId: id } : n)) };
}

function renamed(ids: readonly string[], at: number, id: string): readonly string[] {
  return ids.includes(id) ? ids : ids.map((x, i) => (i === at ? id : x));
}

// The second call asks exactly what the first does (tool and arguments; its canaries are its own, in the same places).
function twinCalls(runs: readonly RunPlan[], from: number, to: number): readonly RunPlan[] {
  const all = runs.flatMap((r, ri) => r.nodes.flatMap((n, ni) => n.calls.map((_, ci) => [ri, ni, ci] as const)));
  if (all.length < 2) return runs;
  const a = all[from % all.length]!;
  const b = all[(from + 1 + (to % (all.length - 1))) % all.length]!;
  const src = runs[a[0]]!.nodes[a[1]]!.calls[a[2]]!;
  const node = runs[b[0]]!.nodes[b[1]]!;
  // One identity per (slot, tool) in a node: a twin that would take a sibling call's identity is left out.
  if (node.calls.some((k, ci) => ci !== b[2] && k.slot === node.calls[b[2]]!.slot && k.toolId === src.toolId)) return runs;
  return runs.map((r, ri) => ({
    ...r,
    nodes: r.nodes.map((n, ni) => ({
      ...n,
      calls: n.calls.map((k, ci): CallPlan => {
        if (ri === a[0] && ni === a[1] && ci === a[2]) return { ...k, tier: 1 };
        if (ri === b[0] && ni === b[1] && ci === b[2]) return { ...k, tier: 1, toolId: src.toolId, args: src.args };
        return k;
      }),
    })),
  }));
}

function requestShaped(runs: readonly RunPlan[], url: number, timeout: boolean): readonly RunPlan[] {
  const urls = [...REQUEST_URLS, ...ESCAPED.slice(0, 4)];
  const shaped = (k: CallPlan): CallPlan => {
    if (k.toolId !== 'http_request') return k;
    const args: Record<string, unknown> = {};
    for (const [key, value] of [['method', 'POST'], ['url', urls[url % urls.length]], ...Object.entries(k.args.args).filter(([key]) => key !== 'method' && key !== 'url')] as const) {
      Object.defineProperty(args, key, { value, enumerable: true, writable: true, configurable: true });
    }
    return { ...k, args: { args, secretArgKeys: k.args.secretArgKeys } };
  };
  return runs.map((r) => ({
    ...r,
    nodes: r.nodes.map((n) => {
      const first = n.calls.find((k) => k.toolId === 'http_request');
      return { ...n, calls: n.calls.map(shaped), ...(timeout && first ? { timeoutSlot: first.slot } : {}) };
    }),
  }));
}

function withEscaped(k: CallPlan, shape: number): CallPlan {
  const args: Record<string, unknown> = {};
  for (const key of Object.keys(k.args.args)) Object.defineProperty(args, key, { value: k.args.args[key], enumerable: true, writable: true, configurable: true });
  Object.defineProperty(args, 'escapedLink', { value: ESCAPED[shape % ESCAPED.length], enumerable: true, writable: true, configurable: true });
  const template: ArgsTemplate = { args, secretArgKeys: k.args.secretArgKeys };
  return { ...k, args: template };
}

function escapedTurn(t: TurnPlan, shape: number): TurnPlan {
  return { ...t, calls: t.calls.map((k) => withEscaped(k, shape)) };
}

// A retry a resolution authorizes after the run's cancellation: cancel first, then confirm absence with full evidence.
function timed(plan: KxmPlan, clock: KxmClock, retryAfterCancel: boolean): KxmPlan {
  return { ...plan, clock, ...(retryAfterCancel ? { cancel: 'before-recovery' as const, resolve: { action: 'confirm_absent_retry' as const, evidence: 'full' as const } } : {}) };
}
