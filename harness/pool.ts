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
 */
export async function mapPool<T, R>(
  items: readonly T[],
  jobs: number,
  task: (item: T, index: number) => Promise<R>,
  stop: () => boolean = () => false,
): Promise<Array<R | undefined>> {
  const results: Array<R | undefined> = new Array<R | undefined>(items.length).fill(undefined);
  let next = 0;
  let failure: { error: unknown } | null = null;
  const lane = async (): Promise<void> => {
    while (failure === null && !stop() && next < items.length) {
      const index = next++;
      try {
        results[index] = await task(items[index]!, index);
      } catch (error) {
        // The first error wins; the other lanes finish what they hold and start nothing new.
        failure ??= { error };
      }
    }
  };
  const lanes = Math.max(1, Math.min(jobs, items.length));
  await Promise.all(Array.from({ length: lanes }, () => lane()));
  if (failure !== null) throw (failure as { error: unknown }).error;
  return results;
}
