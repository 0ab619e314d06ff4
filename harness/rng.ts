// A small seeded PRNG: every random choice in a trial comes from the recorded seed.

/** A deterministic generator (splitmix32) with helpers; the same seed gives the same sequence. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  return {
    next,
    int: (maxExclusive) => next() % maxExclusive,
    id: (prefix) => `${prefix}-${next().toString(36)}`,
    pick: (items) => {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[next() % items.length]!;
    },
  };
}

export interface Rng {
  next(): number;
  int(maxExclusive: number): number;
  id(prefix: string): string;
  pick<T>(items: readonly T[]): T;
}

/** Derives a child seed from a parent seed and a label, so scenarios do not shift each other's sequences. */
export function deriveSeed(seed: number, label: string): number {
  let h = (seed ^ 0x811c9dc5) >>> 0;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
