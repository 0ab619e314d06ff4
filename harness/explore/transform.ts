// What the model asks on a re-run: the same arguments in another key order, with rotated secrets, or with one public value changed.
import { keyClass } from '../model/projection.js';
import { SECRET } from './canaries.js';

/** The same value with every object's keys in reverse order (equal projection, other bytes). */
export function reorder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reorder);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value).reverse()) define(out, key, reorder((value as Record<string, unknown>)[key]));
    return out;
  }
  return value;
}

/** Secrets rotated where §11 masks them: the scheme's casing, the userinfo's user (the canaries themselves are re-drawn). */
export function rotate(value: unknown): unknown {
  if (typeof value === 'string') {
    if (!value.includes(SECRET)) return value;
    return value
      .replace(/^(bearer|basic|token)(?= )/i, (w) => (w === w.toLowerCase() ? w.toUpperCase() : w.toLowerCase()))
      .replace(/^https:\/\/([^:/]+):/, (_, user: string) => `https://${user}-rotated:`);
  }
  if (Array.isArray(value)) return value.map(rotate);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value)) define(out, key, rotate((value as Record<string, unknown>)[key]));
    return out;
  }
  return value;
}

/** One public value changed (the `choice`-th of the changes the value offers); secrets stay where they were. */
export function mutatePublic(value: Record<string, unknown>, secretArgKeys: readonly string[], choice: number): Record<string, unknown> {
  const spots: Array<() => void> = [];
  const root = clone(value) as Record<string, unknown>;
  collect(root, spots, new Set(secretArgKeys));
  if (spots.length === 0) {
    define(root, 'added', 1);
    return root;
  }
  spots[choice % spots.length]!();
  return root;
}

// Every place a public value can change, each as a closure that changes it in the cloned tree.
function collect(node: unknown, spots: Array<() => void>, skip: ReadonlySet<string> = new Set()): void {
  if (Array.isArray(node)) {
    node.forEach((v, i) => visit(v, (next) => (node[i] = next), spots));
    spots.push(() => node.push('extra'));
    return;
  }
  if (node !== null && typeof node === 'object') {
    const obj = node as Record<string, unknown>;
    // Declared secret keys and credential keys are masked whole: a change there is no public change.
    for (const key of Object.keys(obj)) if (!skip.has(key) && keyClass(key) === 'public') visit(obj[key], (next) => define(obj, key, next), spots);
    spots.push(() => define(obj, 'added', 0));
  }
}

function visit(v: unknown, set: (next: unknown) => void, spots: Array<() => void>): void {
  if (typeof v === 'number') spots.push(() => set(v + 1));
  else if (typeof v === 'boolean') spots.push(() => set(!v));
  else if (v === null) spots.push(() => set(0));
  else if (typeof v === 'string') {
    const changed = changeString(v);
    if (changed !== null) spots.push(() => set(changed));
  } else collect(v, spots);
}

// A public part of a string changes: its last character, the host or a plain query value of a URL, the text after a
// quoted secret, a port, the scheme label; unicode é switches normalization form. Never a masked part.
function changeString(s: string): string | null {
  if (!s.includes(SECRET)) {
    if (s.includes('\u00e9')) return s.replace('\u00e9', 'e\u0301');
    if (/^\d{1,5}(:\d{1,5})*$/.test(s)) return s.replace(/\d$/, (d) => String((Number(d) + 1) % 10));
    // The last code point, not the last UTF-16 unit: cutting a pair in half would plant a lone surrogate, which is not
    // I-JSON (RFC 8785 §3.2.2.2) and so has no digest the contract defines (docs/protocol.md, prepare).
    return s.length === 0 ? 'x' : `${Array.from(s).slice(0, -1).join('')}${s.endsWith('Z') ? 'Y' : 'Z'}`;
  }
  if (/^(bearer|token) /i.test(s)) return s.replace(/^\w+/, 'Basic');
  if (/^basic /i.test(s)) return s.replace(/^\w+/, 'Bearer');
  if (/@(api\.invalid|h\.test)/.test(s)) return s.replace(/@(api\.invalid|h\.test)/, '@other.invalid');
  if (s.includes('page=2')) return s.replace('page=2', 'page=3');
  if (s.includes('timeout=30')) return s.replace('timeout=30', 'timeout=31');
  return null;
}

function clone(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clone);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value)) define(out, key, clone((value as Record<string, unknown>)[key]));
    return out;
  }
  return value;
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
