// The coordinator's own durable log: outcomes, dispatches and resolutions survive a kill of the journal's driver.
import { JsonlLog } from '../jsonl-log.js';
import type { ActionOutcome, UnknownResolution } from './types.js';

export type BatchEvent =
  | { readonly type: 'outcome'; readonly outcome: ActionOutcome }
  | { readonly type: 'dispatch'; readonly index: number; readonly phase: 'batch' | 'recovery' | 'readback' }
  | { readonly type: 'resolution'; readonly resolution: UnknownResolution };

/** The coordinator's log, with the folds recovery needs. */
export class BatchLog extends JsonlLog<BatchEvent> {
  /** Recorded outcomes by action index. */
  outcomes(): Map<number, ActionOutcome> {
    const out = new Map<number, ActionOutcome>();
    for (const e of this.read()) if (e.type === 'outcome') out.set(e.outcome.index, e.outcome);
    return out;
  }

  /** Recorded resolutions by action index. */
  resolutions(): Map<number, UnknownResolution> {
    const out = new Map<number, UnknownResolution>();
    for (const e of this.read()) if (e.type === 'resolution') out.set(e.resolution.index, e.resolution);
    return out;
  }

  /** Dispatch attempts the coordinator made for one action, over every driver generation. */
  dispatches(index: number): number {
    return this.read().filter((e) => e.type === 'dispatch' && e.index === index).length;
  }
}
