// The one place generated trials make canaries: planted secrets and result markers, recognisable in a hex dump, never reported by value.
import type { CanaryRole } from '../model/history.js';
import type { TrialContext } from '../engine/trial-context.js';
import { withNonce } from '../../shared/secrets/canary-nonce.js';

/** Where a template holds a secret: every occurrence becomes a fresh canary when the template is instantiated. */
export const SECRET = '{{canary}}';
const CANARY_PREFIX = 'EJC-CANARY-';

/** The canaries of one trial: deterministic values from the trial's seed, each registered with its role. */
export class CanaryBook {
  readonly #t: TrialContext;
  readonly #tag: string;
  #next = 0;
  readonly values: string[] = [];

  constructor(t: TrialContext) {
    this.#t = t;
    this.#tag = t.seed.toString(36);
  }

  /** A new canary with its role, registered with the trial here and only here. */
  make(role: CanaryRole): string {
    const id = this.#next++;
    // The closing Z (never a base-36 digit here) keeps one canary from being a prefix of another.
    const value = withNonce(`${CANARY_PREFIX}${this.#tag}x${id.toString(36)}Z`, this.#t.canaryNonce);
    this.values.push(value);
    // An argument secret is masked in everything the harness writes and must never come back on stdout or stderr;
    // results are not: a journal may legitimately hand a run result back in a replay.
    if (role === 'arg') this.#t.secret(value);
    this.#t.note({ kind: 'canary', id, role, value });
    return value;
  }

  /** Replaces every SECRET in a template by a fresh argument canary; `used` lists them in order. */
  instantiate<T>(template: T): { value: T; used: string[] } {
    const used: string[] = [];
    const value = fill(template, () => {
      const c = this.make('arg');
      used.push(c);
      return c;
    }) as T;
    return { value, used };
  }

  /** The same template with the same canaries in the same places (a re-run asking the same secrets). */
  reuse<T>(template: T, used: readonly string[]): T {
    let i = 0;
    return fill(template, () => used[i++] ?? this.make('arg')) as T;
  }
}

function fill(value: unknown, next: () => string): unknown {
  if (typeof value === 'string') return value.includes(SECRET) ? value.split(SECRET).reduce((acc, part, i) => (i === 0 ? part : `${acc}${next()}${part}`)) : value;
  if (Array.isArray(value)) return value.map((v) => fill(v, next));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) Object.defineProperty(out, key, { value: fill((value as Record<string, unknown>)[key], next), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

/** A value with every canary replaced by its id, for anything a report or a terminal shows. */
export function maskCanaries(value: unknown, values: readonly string[]): unknown {
  if (typeof value === 'string') return values.reduce((s, c, i) => (s.includes(c) ? s.split(c).join(`<canary #${i}>`) : s), value);
  if (Array.isArray(value)) return value.map((v) => maskCanaries(v, values));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) Object.defineProperty(out, maskCanaries(key, values) as string, { value: maskCanaries((value as Record<string, unknown>)[key], values), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}
