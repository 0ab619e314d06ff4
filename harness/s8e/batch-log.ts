// The coordinator's own durable log: outcomes, dispatches and resolutions survive a kill of the journal's driver.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { ActionOutcome, UnknownResolution } from './types.js';

export type BatchEvent =
  | { readonly type: 'outcome'; readonly outcome: ActionOutcome }
  | { readonly type: 'dispatch'; readonly index: number; readonly phase: 'batch' | 'recovery' | 'readback' }
  | { readonly type: 'resolution'; readonly resolution: UnknownResolution };

/** Append-only JSONL; one write per event so a reader never sees half an event. */
export class BatchLog {
  constructor(readonly path: string) {}

  /** Appends one event durably. */
  append(event: BatchEvent): void {
    appendFileSync(this.path, `${JSON.stringify(event)}\n`);
  }

  /** Every event so far, in order. */
  read(): BatchEvent[] {
    if (!existsSync(this.path)) return [];
    return readFileSync(this.path, 'utf8')
      .split('\n')
      .filter((l) => l.length > 0)
      .map((l) => JSON.parse(l) as BatchEvent);
  }

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
