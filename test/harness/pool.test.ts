// mapPool keeps input order, bounds concurrency, stops starting work on request and surfaces the first error.
import { describe, expect, it } from 'vitest';
import { longestFirst, mapPool } from '../../harness/pool.js';

describe('mapPool', () => {
  it('returns results in input order with at most `jobs` tasks in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await mapPool([5, 1, 4, 2, 3], 2, async (n) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      // Later items finish first, so order can only come from the index.
      await new Promise((r) => setTimeout(r, n * 3));
      inFlight -= 1;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30]);
    expect(peak).toBe(2);
  });

  it('starts nothing once stop() is true and leaves those slots undefined', async () => {
    const started: number[] = [];
    const out = await mapPool([1, 2, 3, 4], 1, async (n) => {
      started.push(n);
      return n;
    }, () => started.length >= 2);
    expect(started).toEqual([1, 2]);
    expect(out).toEqual([1, 2, undefined, undefined]);
  });

  it('rethrows the first error after the running tasks finish', async () => {
    const finished: number[] = [];
    await expect(mapPool([1, 2, 3], 2, async (n) => {
      if (n === 1) throw new Error('boom');
      await new Promise((r) => setTimeout(r, 5));
      finished.push(n);
      return n;
    })).rejects.toThrow('boom');
    expect(finished).toEqual([2]);
  });

  it('takes tasks in the given order and still returns them in input order', async () => {
    const started: string[] = [];
    const items = ['short', 'long', 'mid'];
    const order = longestFirst(items, (s) => ({ short: 1, long: 9, mid: 5 })[s] ?? 0);
    expect(order).toEqual([1, 2, 0]);
    const out = await mapPool(items, 1, async (s) => {
      started.push(s);
      return s.toUpperCase();
    }, undefined, order);
    expect(started).toEqual(['long', 'mid', 'short']);
    expect(out).toEqual(['SHORT', 'LONG', 'MID']);
    await expect(mapPool(items, 1, async (s) => s, undefined, [0, 0, 1])).rejects.toThrow(/permutation/);
  });
});
