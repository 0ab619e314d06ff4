// Runs independent tasks on a bounded number of lanes and returns their results in input order.
import { availableParallelism } from 'node:os';

/** The default lane count: one per core, as `--jobs` documents. */
export function defaultJobs(): number {
  return Math.max(1, availableParallelism());
}

/**
 * Maps `items` through `task` with at most `jobs` in flight. Results keep the input order whatever
 * order the tasks finish in, so a report built from them is the same for every `jobs`. When `stop()`
 * turns true no further task starts (tasks already running finish); their slots are left undefined.
 * `order` (a permutation of the indices) is the order tasks are taken in; the default is input order. A task is told
 * its lane (0 to jobs-1), so a caller with one worker per lane hands the task to that lane's worker.
 */
export async function mapPool<T, R>(
  items: readonly T[],
  jobs: number,
  task: (item: T, index: number, lane: number) => Promise<R>,
  stop: () => boolean = () => false,
  order?: readonly number[],
): Promise<Array<R | undefined>> {
  const results: Array<R | undefined> = new Array<R | undefined>(items.length).fill(undefined);
  const queue = order ?? items.map((_, i) => i);
  if (queue.length !== items.length || new Set(queue).size !== items.length || queue.some((i) => !(i >= 0 && i < items.length))) {
    throw new RangeError(`mapPool: order must be a permutation of 0..${items.length - 1}`);
  }
  let next = 0;
  let failure: { error: unknown } | null = null;
  const lane = async (laneIndex: number): Promise<void> => {
    while (failure === null && !stop() && next < queue.length) {
      const index = queue[next++]!;
      try {
        results[index] = await task(items[index]!, index, laneIndex);
      } catch (error) {
        // The first error wins; the other lanes finish what they hold and start nothing new.
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: laneCount(jobs, items.length) }, (_, i) => lane(i)));
  if (failure !== null) throw (failure as { error: unknown }).error;
  return results;
}

/** How many lanes mapPool runs for `items` tasks at `jobs`: never more than there are tasks, at least one. */
export function laneCount(jobs: number, items: number): number {
  return Math.max(1, Math.min(jobs, items));
}

/**
 * Longest first: the indices of `items` by descending `cost`, ties in input order. With lanes taking work in
 * this order the last task to start is a short one, so the lanes finish close together.
 */
export function longestFirst<T>(items: readonly T[], cost: (item: T) => number): number[] {
  const costs = items.map(cost);
  return items.map((_, i) => i).sort((a, b) => costs[b]! - costs[a]! || a - b);
}
