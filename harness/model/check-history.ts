// The model's verdict on a history: every observation checked against what the contract allows after what came before.
import type { OperationName, TierMode } from '../../shared/protocol/schemas.js';
import type { ClauseId } from './clauses.js';
import type { HistoryEvent } from './history.js';
import { EMPTY, rowLogicalKey, stateKey, type MState } from './journal-state.js';
import { applyAnswered, applyKilled } from './operations.js';
import type { Failure, OpEnv, Outcome } from './outcome.js';
import { checkScan } from './world-rules.js';
import { KxmChecker } from '../kxm/check.js';

const KXM_CLAUSE: Partial<Record<string, ClauseId>> = { 'kxm.declare': 'kxm.class', 'kxm.dispatch': 'kxm.fence', 'kxm.recover': 'kxm.recovery', 'kxm.resolve': 'kxm.resolution', 'kxm.cancel': 'kxm.cancel' };

type OpEvent = Extract<HistoryEvent, { kind: 'op' }>;

/** What the model found: passing checks per clause, and the first violation (with the history index it happened at). */
export interface ModelReport {
  readonly checks: Partial<Record<ClauseId, number>>;
  readonly failure: (Failure & { readonly at: number }) | null;
  /** Possible journals the history left open at the end (1 when every uncertainty was observed away). */
  readonly worlds: number;
}

export interface ModelConfig {
  readonly tierMode: TierMode;
  /** Where the §4 gate lives (`capabilities.gate`): with `harness` the gate's read is the journal's `listEffects`. */
  readonly gate?: 'journal' | 'harness' | undefined;
}

/** Folds the history through the model; concurrent operations are checked against every order they could have taken. */
export function checkHistory(history: readonly HistoryEvent[], config: ModelConfig): ModelReport {
  const run = new Checker(history, config);
  return run.result();
}

/**
 * The model's verdict on a history that keeps growing (a trial checked after every step), walking only the events added
 * since the last call. It answers what checkHistory answers on the whole history: an operation that was still in
 * flight when earlier ones were walked (sent before the latest answer walked) could belong to their concurrent segment,
 * so that history is walked again from the start.
 */
export class GrowingHistoryCheck {
  #checker: Checker | null = null;
  /** Times the history was walked again from its start (an operation in flight when earlier ones were walked). */
  rewalks = 0;

  constructor(readonly config: ModelConfig) {}

  check(history: readonly HistoryEvent[]): ModelReport {
    const c = this.#checker;
    if (c === null || history.length < c.walked || history.slice(c.walked).some((e) => e.kind === 'op' && e.sent <= c.lastAnswered)) {
      if (c !== null) this.rewalks += 1;
      this.#checker = new Checker(history, this.config);
    } else if (c.failure === null) c.extend(history);
    return this.#checker!.result();
  }
}

// Past this many possible journals the branches are merged by state; a trial never gets near it unless uncertainties pile up.
const MAX_WORLDS = 64;

class Checker {
  readonly checks: Partial<Record<ClauseId, number>> = {};
  failure: (Failure & { at: number }) | null = null;
  worlds: MState[] = [EMPTY];
  readonly faults = new Map<string, Set<string>>();
  readonly live = new Set<string>();
  readonly othersAtOpen = new Map<string, number>();
  readonly freshRestart = new Set<string>();
  readonly writes = new Map<string, number>();
  /** The logical effect each tier-1 key reached a target for first. */
  readonly keyOwners = new Map<string, string>();
  readonly kxm = new KxmChecker();
  /** How many events of the history have been walked, and the latest answer among the operations walked. */
  walked = 0;
  lastAnswered = -Infinity;
  history: readonly HistoryEvent[];
  readonly canaries: Array<OpEnv['canaries'][number]> = [];

  constructor(
    history: readonly HistoryEvent[],
    readonly config: ModelConfig,
  ) {
    this.history = history;
    this.extend(history);
  }

  /** Walks the events of `history` past those already walked (it holds them, unchanged, as its beginning). */
  extend(history: readonly HistoryEvent[]): void {
    const from = this.walked;
    this.history = history;
    for (const e of history.slice(from)) if (e.kind === 'canary') this.canaries.push({ id: e.id, role: e.role, value: e.value });
    this.walk(from);
    this.walked = history.length;
  }

  result(): ModelReport {
    return { checks: this.checks, failure: this.failure, worlds: this.worlds.length };
  }

  private walk(from: number): void {
    const h = this.history;
    // firstSent[k]: the earliest request among the operations at k and after.
    const firstSent: number[] = new Array<number>(h.length + 1).fill(Infinity);
    for (let k = h.length - 1; k >= from; k--) {
      const ev = h[k]!;
      firstSent[k] = Math.min(firstSent[k + 1]!, ev.kind === 'op' ? ev.sent : Infinity);
    }
    for (let i = from; i < h.length && this.failure === null; ) {
      const e = h[i]!;
      if (e.kind !== 'op') {
        this.other(e, i);
        i += 1;
        continue;
      }
      // A segment: operations whose request/answer intervals overlap ran concurrently; other events inside it wait.
      // The history is in answer order, so an operation sent early (inside the segment) can be listed after one sent
      // late: the segment runs on while any operation still to come was sent before its end. (An operation listed
      // between them then overlaps that one, which spans it.)
      const ops: Array<{ ev: OpEvent; at: number }> = [{ ev: e, at: i }];
      const later: Array<{ ev: HistoryEvent; at: number }> = [];
      let end = e.answered;
      let j = i + 1;
      for (; j < h.length; j++) {
        const next = h[j]!;
        if (next.kind === 'op') {
          if (firstSent[j]! > end) break;
          ops.push({ ev: next, at: j });
          end = Math.max(end, next.answered);
        } else later.push({ ev: next, at: j });
      }
      // Events after the segment's last operation belong after it, in their own order.
      const lastOp = ops[ops.length - 1]!.at;
      const inside = later.filter((x) => x.at < lastOp);
      const after = later.filter((x) => x.at > lastOp);
      this.lastAnswered = Math.max(this.lastAnswered, end);
      if (ops.length === 1) this.sequential(ops[0]!.ev, ops[0]!.at);
      else this.concurrent(ops);
      for (const x of inside) if (this.failure === null) this.other(x.ev, x.at);
      i = after.length > 0 ? after[0]!.at : j;
    }
  }

  private env(ev: OpEvent): OpEnv {
    return {
      tierMode: this.config.tierMode,
      faults: this.faults.get(ev.driver) ?? new Set(),
      canaries: this.canaries,
      afterRestart: ev.op === 'listEffects' && this.freshRestart.has(ev.driver),
      othersLive: this.othersAtOpen.get(ev.driver) ?? 0,
      gateReadsListing: this.config.gate === 'harness',
    };
  }

  // One operation against every possible journal; it is consistent when at least one of them explains its answer.
  private step(worlds: MState[], ev: OpEvent): { worlds: MState[]; failure: Failure | null; clauses: readonly ClauseId[] } {
    const env = this.env(ev);
    if (ev.answer.kind === 'killed') {
      const at = ev.answer.at;
      return { worlds: dedupe(worlds.flatMap((w) => applyKilled(w, ev.op, ev.params, at, env))), failure: null, clauses: [] };
    }
    const oks: Array<Extract<Outcome, { ok: true }>> = [];
    let failure: Failure | null = null;
    for (const w of worlds) {
      const o = applyAnswered(w, ev.op, ev.params, ev.answer, env);
      if (o.ok) oks.push(o);
      else failure ??= o.failure;
    }
    if (oks.length === 0) return { worlds, failure, clauses: [] };
    return { worlds: dedupe(oks.flatMap((o) => [o.next, ...(o.alternatives ?? [])])), failure: null, clauses: oks[0]!.clauses };
  }

  private sequential(ev: OpEvent, at: number): void {
    if (ev.op.startsWith('kxm.')) {
      const failure = this.kxm.step(ev.op, ev.params, ev.answer);
      if (failure !== null) this.failure = { ...failure, at };
      else if (ev.answer.kind !== 'killed') this.checks[KXM_CLAUSE[ev.op] ?? 'kxm.recovery'] = (this.checks[KXM_CLAUSE[ev.op] ?? 'kxm.recovery'] ?? 0) + 1;
      return;
    }
    const r = this.step(this.worlds, ev);
    this.after(ev, r, at);
  }

  private after(ev: OpEvent, r: { worlds: MState[]; failure: Failure | null; clauses: readonly ClauseId[] }, at: number): void {
    if (r.failure !== null) {
      this.failure = { ...r.failure, at };
      return;
    }
    this.worlds = r.worlds;
    for (const c of r.clauses) this.checks[c] = (this.checks[c] ?? 0) + 1;
    this.bookkeep(ev);
  }

  // Every order the concurrent operations could have been applied in, respecting real time; none fitting is a violation.
  private concurrent(ops: Array<{ ev: OpEvent; at: number }>): void {
    const ends: MState[][] = [];
    const clauses = new Set<ClauseId>();
    let firstFailure: { failure: Failure; at: number } | null = null;
    const dfs = (left: Array<{ ev: OpEvent; at: number }>, worlds: MState[], faultsSnapshot: Map<string, Set<string>>): void => {
      if (left.length === 0) {
        ends.push(worlds);
        return;
      }
      for (const cand of left) {
        if (left.some((o) => o !== cand && o.ev.answered < cand.ev.sent)) continue;
        const r = this.step(worlds, cand.ev);
        if (r.failure !== null) {
          firstFailure ??= { failure: r.failure, at: cand.at };
          continue;
        }
        r.clauses.forEach((c) => clauses.add(c));
        dfs(left.filter((o) => o !== cand), r.worlds, faultsSnapshot);
      }
    };
    dfs(ops, this.worlds, this.faults);
    if (ends.length === 0) {
      const f = (firstFailure as { failure: Failure; at: number } | null) ?? { failure: { clause: 'listing' as ClauseId, what: 'concurrent operations', expected: 'some order', observed: 'none' }, at: ops[0]!.at };
      const samePrepare = ops.every((o) => o.ev.op === 'prepare') && new Set(ops.map((o) => identityOf(o.ev.params))).size === 1;
      this.failure = {
        ...f.failure,
        clause: samePrepare ? 'identity.unique' : f.failure.clause,
        what: `${f.failure.what} — no order of the ${ops.length} concurrent operations (${ops.map((o) => `${o.ev.driver} ${o.ev.op}`).join(', ')}) explains their answers`,
        at: f.at,
      };
      return;
    }
    this.worlds = dedupe(ends.flat());
    for (const c of clauses) this.checks[c] = (this.checks[c] ?? 0) + 1;
    if (ops.every((o) => o.ev.op === 'prepare')) this.checks['identity.unique'] = (this.checks['identity.unique'] ?? 0) + 1;
    for (const o of ops) this.bookkeep(o.ev);
  }

  // Faults and restarts: which driver has which fault on, and which listing is the first after a restart.
  private bookkeep(ev: OpEvent): void {
    if (ev.op === 'listEffects') this.freshRestart.delete(ev.driver);
    if (ev.op === 'fault' && ev.answer.kind === 'result') {
      const p = ev.params as { fault: string; enabled: boolean };
      const set = this.faults.get(ev.driver) ?? new Set<string>();
      if (p.enabled) set.add(p.fault);
      else set.delete(p.fault);
      this.faults.set(ev.driver, set);
    }
  }

  private other(e: HistoryEvent, at: number): void {
    switch (e.kind) {
      case 'driver':
        this.othersAtOpen.set(e.driver, this.live.size);
        this.live.add(e.driver);
        if (e.restart) this.freshRestart.add(e.driver);
        return;
      case 'kill':
      case 'close':
        this.live.delete(e.driver);
        this.faults.delete(e.driver);
        return;
      case 'dispatch': {
        const failure = this.dispatch(e);
        if (failure) this.failure = { ...failure, at };
        return;
      }
      case 'scan': {
        const failure = checkScan(e, this.worlds, this.canaries);
        if (failure) this.failure = { ...failure, at };
        else this.checks['secrets.args'] = (this.checks['secrets.args'] ?? 0) + 1;
        return;
      }
      default:
        return;
    }
  }

  // The target ledger's view: never two physical writes of one logical effect; a tier-1 dispatch carries the stored key.
  private dispatch(e: Extract<HistoryEvent, { kind: 'dispatch' }>): Failure | null {
    if (e.tier === 1) {
      const keys = this.worlds.map((w) => [...w.rows.values()].find((r) => rowLogicalKey(r) === e.logicalKey)?.ikey);
      const stored = keys[0];
      if (typeof stored === 'string' && stored !== 'unknown' && keys.every((k) => k === stored) && e.idempotencyKey !== stored) {
        return { clause: 'world.key-on-target', what: `tier-1 dispatch to ${e.target} for ${e.logicalKey}`, expected: stored, observed: e.idempotencyKey };
      }
      this.checks['world.key-on-target'] = (this.checks['world.key-on-target'] ?? 0) + 1;
      // The target's ledger: one key for two logical effects means the target deduplicated one into the other.
      if (e.idempotencyKey !== null) {
        const owner = this.keyOwners.get(e.idempotencyKey) ?? e.logicalKey;
        if (owner !== e.logicalKey) return { clause: 'key.distinct', what: `tier-1 dispatch to ${e.target} for ${e.logicalKey}`, expected: 'a key no other effect was sent under', observed: `the key ${e.idempotencyKey} of ${owner}` };
        this.keyOwners.set(e.idempotencyKey, owner);
      }
    }
    if (!e.applied) return null;
    const n = (this.writes.get(e.logicalKey) ?? 0) + 1;
    this.writes.set(e.logicalKey, n);
    if (n > 1) return { clause: 'world.at-most-once', what: `physical writes of ${e.logicalKey} at ${e.target} (tier ${e.tier})`, expected: '≤ 1', observed: n };
    this.checks['world.at-most-once'] = (this.checks['world.at-most-once'] ?? 0) + 1;
    return null;
  }
}

function identityOf(params: unknown): string {
  const p = params as { correlation: unknown; slot: number; toolId: string };
  return JSON.stringify([p.correlation, p.slot, p.toolId]);
}

function dedupe(worlds: MState[]): MState[] {
  const seen = new Map<string, MState>();
  for (const w of worlds) {
    const k = stateKey(w);
    if (!seen.has(k)) seen.set(k, w);
  }
  return [...seen.values()].slice(0, MAX_WORLDS);
}

/** The operations a history holds, by name (for counts and progress). */
export function opsIn(history: readonly HistoryEvent[], op: OperationName): number {
  return history.filter((e) => e.kind === 'op' && e.op === op).length;
}
