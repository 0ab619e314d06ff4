// Choosing which scenarios a run executes: id globs, tags, and a deterministic shard of the result.
import { EjcError } from '../shared/errors.js';
import { recordedDurations } from './scenario-durations.js';

/** The fields selection looks at (the catalog's ScenarioInfo has them). */
export interface Selectable {
  readonly id: string;
  readonly tags: readonly string[];
}

/**
 * Filters by id globs (any match; empty = all) and tags (any match; empty = all), then keeps shard `index` of
 * `count` (see shardOf: balanced by the recorded durations, count-based for the rest). Keeps catalog order.
 * A glob or tag that matches no scenario at all is a scenario_unknown error (a typo must not select nothing).
 * `exclude` globs drop matching ids before sharding; one that matches nothing is an error too.
 */
export function selectScenarios<T extends Selectable>(
  all: readonly T[],
  patterns: readonly string[],
  tags: readonly string[],
  shard: { index: number; count: number } | null,
  exclude: readonly string[] = [],
  durations: ReadonlyMap<string, number> = recordedDurations(),
): T[] {
  const globs = patterns.map((p) => ({ pattern: p, regex: globToRegExp(p) }));
  const excluded = exclude.map((p) => ({ pattern: p, regex: globToRegExp(p) }));
  for (const g of [...globs, ...excluded]) {
    if (!all.some((s) => g.regex.test(s.id))) {
      throw new EjcError('scenario_unknown', `no scenario matches ${g.pattern}${suggest(all.map((s) => s.id), g.pattern)}`);
    }
  }
  const knownTags = new Set(all.flatMap((s) => s.tags));
  for (const t of tags) {
    if (!knownTags.has(t)) throw new EjcError('scenario_unknown', `no scenario has tag ${t}${suggest([...knownTags], t)}`);
  }
  const filtered = all.filter(
    (s) =>
      (globs.length === 0 || globs.some((g) => g.regex.test(s.id))) &&
      (tags.length === 0 || tags.some((t) => s.tags.includes(t))) &&
      !excluded.some((g) => g.regex.test(s.id)),
  );
  if (shard === null) return filtered;
  checkShard(shard);
  const owners = shardOf(filtered.map((s) => s.id), shard.count, durations);
  return filtered.filter((s) => owners.get(s.id) === shard.index);
}

/**
 * Assigns every id to a shard 1..count, deterministically and the same on every machine. Ids with a recorded
 * duration go longest first (ties by id) to the shard with the least recorded time so far (ties: the lowest index);
 * then ids without one, in sorted id order, each to the shard holding the fewest scenarios (a split by count: with
 * no durations at all this is round robin over the sorted ids).
 */
export function shardOf(ids: readonly string[], count: number, durations: ReadonlyMap<string, number>): Map<string, number> {
  const sorted = [...ids].sort(compareId);
  const owners = new Map<string, number>();
  const load = new Array<number>(count).fill(0);
  const timed = sorted.filter((id) => durations.has(id)).sort((a, b) => durations.get(b)! - durations.get(a)! || compareId(a, b));
  for (const id of timed) {
    let least = 0;
    for (let i = 1; i < count; i++) if (load[i]! < load[least]!) least = i;
    load[least]! += durations.get(id)!;
    owners.set(id, least + 1);
  }
  const held = new Array<number>(count).fill(0);
  for (const owner of owners.values()) held[owner - 1]! += 1;
  for (const id of sorted.filter((other) => !durations.has(other))) {
    let fewest = 0;
    for (let i = 1; i < count; i++) if (held[i]! < held[fewest]!) fewest = i;
    held[fewest]! += 1;
    owners.set(id, fewest + 1);
  }
  return owners;
}

/** Parses `i/n` (1-based) into a shard, or throws a usage error that shows the expected form. */
export function parseShard(text: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (match === null) throw new EjcError('usage', `--shard must look like i/n (e.g. 1/4), got ${JSON.stringify(text)}`);
  const shard = { index: Number(match[1]), count: Number(match[2]) };
  checkShard(shard);
  return shard;
}

/**
 * Up to `limit` candidates near `query` (prefix matches first, then by edit distance). Only near typos
 * count: a candidate more than a third of the query's length away is no suggestion at all.
 */
export function closestIds(candidates: string[], query: string, limit = 3, options: { prefixOnly?: boolean } = {}): string[] {
  const near = Math.max(1, Math.floor(query.length / 3));
  // A glob's literal part is a prefix of what it meant: compare it with the ids' beginnings, not the whole ids.
  const distance = (id: string): number =>
    options.prefixOnly === true ? Math.min(...[0, 1, 2].map((d) => editDistance(id.slice(0, query.length - 1 + d), query))) : editDistance(id, query);
  return candidates
    .map((id) => ({ id, score: query !== '' && (id.startsWith(query) || query.startsWith(id)) ? -1 : distance(id) }))
    .filter((c) => c.score <= near)
    .sort((a, b) => a.score - b.score || (a.id < b.id ? -1 : 1))
    .slice(0, limit)
    .map((c) => c.id);
}

/** A glob over ids: `*` is any run of characters, `?` one character, everything else literal. */
export function globToRegExp(glob: string): RegExp {
  const body = [...glob].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[\\^$.|+()[\]{}]/g, '\\$&'))).join('');
  return new RegExp(`^${body}$`);
}

function compareId(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function checkShard(shard: { index: number; count: number }): void {
  if (!Number.isInteger(shard.count) || shard.count < 1 || !Number.isInteger(shard.index) || shard.index < 1 || shard.index > shard.count) {
    throw new EjcError('usage', `shard ${shard.index}/${shard.count} is out of range: need 1 <= i <= n`);
  }
}

/** The ids near a query that matched nothing: for a glob, near its literal beginning. */
export function nearIds(candidates: string[], query: string): string[] {
  const wild = /[*?]/.test(query);
  const literal = wild ? query.slice(0, query.search(/[*?]/)) : query;
  return literal === '' ? [] : closestIds(candidates, literal, 3, { prefixOnly: wild });
}

function suggest(candidates: string[], query: string): string {
  const near = nearIds(candidates, query);
  return near.length === 0 ? '' : ` (closest: ${near.join(', ')})`;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}
