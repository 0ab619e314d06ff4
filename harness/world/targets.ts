// The external targets the engine dispatches to, with durable physical-write ledgers in the trial directory.
import { appendFileSync, mkdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Tier } from '../../shared/protocol/schemas.js';
import { sha256Hex } from '../../shared/canonical-json.js';

export interface DispatchRequest {
  /** The logical effect (scope, slot, tool): a second physical write of one is a duplicate. */
  readonly logicalKey: string;
  /** The target idempotency key: tier 1 only (§2); null where the journal issued none. */
  readonly idempotencyKey: string | null;
  readonly payload: string;
  /** The shape of the target's answer (generated trials); absent: the fixed matrix's long structured response. */
  readonly response?: ResponseShape;
}

/** A generated response: `padding` characters (unicode when asked), a marker near the front, and a digest instead of an echo. */
export interface ResponseShape {
  readonly padding: number;
  readonly unicode?: boolean;
  /** A value placed in the first field, so even a tight bound keeps it in the recorded model value. */
  readonly marker?: string;
}

/** What the world tells a listener: every dispatch attempt and receipt lookup, as it happened. */
export type WorldEvent =
  | { kind: 'dispatch'; target: string; tier: number; logicalKey: string; idempotencyKey: string | null; applied: boolean; deduplicated: boolean }
  | { kind: 'lookup'; target: string; idempotencyKey: string; found: boolean };
export interface DispatchResponse {
  readonly applied: boolean;
  readonly deduplicated: boolean;
  readonly response: string;
}

/** What a ledger observer is told: which target, its tier, the kind of entry and the driver generation. */
export interface LedgerEvent {
  readonly target: string;
  readonly tier: Tier;
  readonly entry: 'attempt' | 'write' | 'dedup';
  readonly generation: number;
}

interface LedgerEntry {
  kind: 'attempt' | 'write' | 'dedup';
  logicalKey: string;
  idempotencyKey: string | null;
  generation: number;
  response: string;
}

/** The world of fake targets for one trial: tier 1 dedups by key, tier 2 answers receipts, tier 3 is opaque. */
export class TargetWorld {
  readonly #dir: string;
  readonly #written = new Set<string>();
  readonly #targets = new Set<string>();
  readonly #onEntry: ((entry: LedgerEvent) => void) | undefined;
  #generation = 0;
  /** Told of every dispatch and lookup (history recording). */
  onEvent: ((e: WorldEvent) => void) | null = null;
  readonly #adopted: Array<ReturnType<TargetWorld['counts']>> = [];

  /** `onEntry` hears of every ledger entry as it is written (the trial's timeline shows target writes). */
  constructor(trialDir: string, onEntry?: (entry: LedgerEvent) => void) {
    this.#onEntry = onEntry;
    this.#dir = join(trialDir, 'targets');
    mkdirSync(this.#dir, { recursive: true });
  }

  /** Marks a restart: writes from now on belong to a later driver generation. */
  nextGeneration(): void {
    this.#generation += 1;
  }

  /** One dispatch attempt: records it durably, performs the physical write unless the tier dedups it. */
  dispatch(target: string, tier: Tier, request: DispatchRequest): DispatchResponse {
    this.#targets.add(target);
    const ledger = this.#read(target);
    this.#append(target, tier, { kind: 'attempt', ...this.#base(request), response: '' });
    if (tier === 1 && request.idempotencyKey !== null) {
      const prior = ledger.find((e) => e.kind === 'write' && e.idempotencyKey === request.idempotencyKey);
      if (prior) {
        this.#append(target, tier, { kind: 'dedup', ...this.#base(request), response: prior.response });
        this.onEvent?.({ kind: 'dispatch', target, tier, logicalKey: request.logicalKey, idempotencyKey: request.idempotencyKey, applied: false, deduplicated: true });
        return { applied: false, deduplicated: true, response: prior.response };
      }
    }
    const response = responseFor(target, request);
    this.#append(target, tier, { kind: 'write', ...this.#base(request), response });
    this.onEvent?.({ kind: 'dispatch', target, tier, logicalKey: request.logicalKey, idempotencyKey: request.idempotencyKey, applied: true, deduplicated: false });
    return { applied: true, deduplicated: false, response };
  }

  /** Whether a write under this idempotency key landed, and its response. */
  lookupReceipt(target: string, idempotencyKey: string): { found: true; response: string } | { found: false } {
    const hit = this.#read(target).find((e) => e.kind === 'write' && e.idempotencyKey === idempotencyKey);
    this.onEvent?.({ kind: 'lookup', target, idempotencyKey, found: hit !== undefined });
    return hit ? { found: true, response: hit.response } : { found: false };
  }

  /** Tier 2: whether a write of this logical effect landed, and its response; a receipt lookup needs no idempotency key (§2). */
  receiptFor(target: string, logicalKey: string): { found: true; response: string } | { found: false } {
    const hit = this.#read(target).find((e) => e.kind === 'write' && e.logicalKey === logicalKey);
    return hit ? { found: true, response: hit.response } : { found: false };
  }

  /** Responses of every physical write one logical effect received, in order. */
  responsesFor(logicalKey: string): string[] {
    return this.#allEntries().filter((e) => e.kind === 'write' && e.logicalKey === logicalKey).map((e) => e.response);
  }

  /** Physical writes one logical effect received. */
  writesFor(logicalKey: string): number {
    return this.#allEntries().filter((e) => e.kind === 'write' && e.logicalKey === logicalKey).length;
  }

  /** Adds another world's counts to this one's (a scenario that ran generated trials in worlds of their own). */
  adopt(counts: ReturnType<TargetWorld['counts']>): void {
    this.#adopted.push(counts);
  }

  /** S8e-style counts over every ledger of the trial. */
  counts(): { dispatchAttempts: number; physicalWrites: number; duplicateWrites: number; restartWrites: number } {
    const own = this.#ownCounts();
    for (const c of this.#adopted) for (const k of Object.keys(own) as Array<keyof typeof own>) own[k] += c[k];
    return own;
  }

  #ownCounts(): { dispatchAttempts: number; physicalWrites: number; duplicateWrites: number; restartWrites: number } {
    const entries = this.#allEntries();
    const writes = entries.filter((e) => e.kind === 'write');
    const firstGeneration = new Map<string, number>();
    let duplicateWrites = 0;
    let restartWrites = 0;
    for (const w of writes) {
      const first = firstGeneration.get(w.logicalKey);
      if (first === undefined) {
        firstGeneration.set(w.logicalKey, w.generation);
        continue;
      }
      duplicateWrites += 1;
      if (w.generation > first) restartWrites += 1;
    }
    return {
      dispatchAttempts: entries.filter((e) => e.kind === 'attempt').length,
      physicalWrites: writes.length,
      duplicateWrites,
      restartWrites,
    };
  }

  #base(request: DispatchRequest): Omit<LedgerEntry, 'kind' | 'response'> {
    return { logicalKey: request.logicalKey, idempotencyKey: request.idempotencyKey, generation: this.#generation };
  }

  /** The ledger files written so far (exact paths: the harness's own files, which the world scan skips). */
  ledgerFiles(): string[] {
    return [...this.#written];
  }

  #append(target: string, tier: Tier, entry: LedgerEntry): void {
    this.#written.add(this.#path(target));
    appendFileSync(this.#path(target), `${JSON.stringify(entry)}\n`);
    this.#onEntry?.({ target, tier, entry: entry.kind, generation: entry.generation });
  }

  #path(target: string): string {
    return join(this.#dir, `${target.replace(/[^A-Za-z0-9_.-]/g, '_')}.ledger.jsonl`);
  }

  #read(target: string): LedgerEntry[] {
    const path = this.#path(target);
    return existsSync(path) ? parseLedger(readFileSync(path, 'utf8')) : [];
  }

  #allEntries(): LedgerEntry[] {
    return [...this.#targets].flatMap((t) => this.#read(t));
  }

}

function parseLedger(text: string): LedgerEntry[] {
  return text
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as LedgerEntry);
}

// A long, structured response so bounding truncates it and output mapping reads past the preview.
function responseFor(target: string, request: DispatchRequest): string {
  const receipt = `rcpt-${request.idempotencyKey ?? request.logicalKey}`;
  const shape = request.response;
  if (shape !== undefined) {
    // No echo of the payload: argument bytes (secrets included) must not come back as a result the journal may keep.
    const body = { note: shape.marker ?? '', target, echo: sha256Hex(request.payload).slice(0, 16), receipt, padding: padding(shape), tail: 'END' };
    return JSON.stringify(body);
  }
  const body = { target, echo: request.payload, receipt, padding: 'x'.repeat(96), tail: 'END' };
  return JSON.stringify(body);
}

// Multi-byte characters make a bound in bytes and a bound in characters disagree.
function padding(shape: ResponseShape): string {
  if (!shape.unicode) return 'x'.repeat(shape.padding);
  // By code point, so no surrogate pair is ever cut in half.
  return Array.from('xé中🙂'.repeat(Math.ceil(shape.padding / 4))).slice(0, shape.padding).join('');
}
