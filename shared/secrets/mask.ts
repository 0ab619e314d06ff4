// The one masking mechanism: every planted canary and declared secret is masked in everything the harness writes.
import { lstatSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canaryId } from './canary-nonce.js';

/**
 * Values that must never leave the harness, with the label their mask shows. Process-wide on purpose:
 * masking every secret any trial of this process planted is never wrong, and a writer needs no context.
 */
const registered = new Map<string, string>();
// The registered values a mask search must look for: every value but a canary under its usual label (those are masked
// by their shape). Kept apart so registering thousands of canaries costs nothing per registration.
const searched = new Map<string, string>();
let ordered: Array<{ value: string; json: string; mask: string }> | null = [];

// Canaries have one recognisable shape, so they are masked even if a writer never heard of the trial that planted them.
// Dotted forms too (a canary made from Math.random().toString(36) holds one), but never a sentence's final dot.
const CANARY = /EJC-CANARY-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*/g;

/** The shortest value `registerSecret` accepts: shorter ones would mask ordinary text (and hex digests) all over a report. */
export const MIN_SECRET_LENGTH = 8;

/** Registers a value no output may carry; `label` (never the value, never a hash of a guessable value) names it in its mask. */
export function registerSecret(value: string, label: string): void {
  if (value.length < MIN_SECRET_LENGTH) throw new RangeError(`a secret must have at least ${MIN_SECRET_LENGTH} characters to be masked safely`);
  if (registered.get(value) === label) return;
  registered.set(value, label);
  if (CANARY_VALUE.test(value) && label === canaryLabel(value)) {
    if (searched.delete(value)) ordered = null;
  } else {
    searched.set(value, label);
    ordered = null;
  }
}

// The searched values, longest first, so a secret that contains another is masked whole; rebuilt only after a change.
function searchOrder(): Array<{ value: string; json: string; mask: string }> {
  ordered ??= [...searched]
    .sort(([a], [b]) => b.length - a.length)
    .map(([v, l]) => ({ value: v, json: JSON.stringify(v).slice(1, -1), mask: maskLabel(l) }));
  return ordered;
}

/** Every registered value with its label, for a process that masks on this one's behalf (a scenario lane). */
export function registeredSecrets(): Array<[value: string, label: string]> {
  return [...registered];
}

const CANARY_VALUE = /^EJC-CANARY-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*$/;

/**
 * The label of a canary: a prefix of the SHA-256 of its seeded part (canaryId), as reports identify canaries (they are
 * random, so the hash reveals nothing); the per-trial nonce is left out so a seed's labels repeat in every process.
 */
export function canaryLabel(canary: string): string {
  return `canary:${canaryId(canary).slice(0, 12)}`;
}

/** What a registered value (or any canary) is replaced with. */
export function maskLabel(label: string): string {
  return `[masked ${label}]`;
}

/** Text with every canary and registered secret replaced by its mask. */
export function maskText(text: string): string {
  let out = text;
  for (const s of searchOrder()) {
    if (out.includes(s.value)) out = out.split(s.value).join(s.mask);
    if (s.json !== s.value && out.includes(s.json)) out = out.split(s.json).join(s.mask);
  }
  return out.includes('EJC-CANARY-') ? out.replace(CANARY, (c) => maskLabel(registered.get(c) ?? canaryLabel(c))) : out;
}

/** Bytes with every canary and registered secret masked; binary-safe (the search runs on a latin1 view). */
export function maskBytes(bytes: Buffer): Buffer {
  let view = bytes.toString('latin1');
  const before = view;
  for (const s of searchOrder()) {
    const pattern = Buffer.from(s.value, 'utf8').toString('latin1');
    if (view.includes(pattern)) view = view.split(pattern).join(s.mask);
  }
  if (view.includes('EJC-CANARY-')) view = view.replace(CANARY, (c) => maskLabel(registered.get(c) ?? canaryLabel(c)));
  return view === before ? bytes : Buffer.from(view, 'latin1');
}

/** A deep copy of a JSON value with every string (keys included) masked; the shape is unchanged. */
export function maskValue<T>(value: T): T {
  return maskDeep(value) as T;
}

/** Masks every file under `dir` in place, except those `skip` names (a journal's own files are its evidence, not the harness's). */
export function maskTreeSync(dir: string, skip: (path: string) => boolean): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (skip(path)) continue;
    const st = lstatSync(path);
    if (st.isDirectory()) maskTreeSync(path, skip);
    else if (st.isFile()) maskFileSync(path);
  }
}

/** Rewrites one file with its secrets masked (only when it holds one); a file that cannot be rewritten is removed, never left unmasked. */
export function maskFileSync(path: string): void {
  const bytes = readFileSync(path);
  const masked = maskBytes(bytes);
  if (masked === bytes) return;
  try {
    writeFileSync(path, masked);
  } catch (error) {
    rmSync(path, { force: true });
    throw error;
  }
}

function maskDeep(value: unknown): unknown {
  if (typeof value === 'string') return maskText(value);
  if (Array.isArray(value)) return value.map(maskDeep);
  if (value !== null && typeof value === 'object') {
    // fromEntries defines own data properties, so a "__proto__" key stays data.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [maskText(k), maskDeep(v)]));
  }
  return value;
}
