// An append-only JSONL file: the durable log format the harness's engine, coordinator and targets share.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';

/** One event per line, one write per event, so a reader never sees half an event. */
export class JsonlLog<E> {
  constructor(readonly path: string) {}

  /** Appends one event durably (the harness is never the process that is killed). */
  append(event: E): void {
    appendFileSync(this.path, `${JSON.stringify(event)}\n`);
  }

  /** Every event so far, in order; a missing file is an empty log. */
  read(): E[] {
    if (!existsSync(this.path)) return [];
    return readFileSync(this.path, 'utf8')
      .split('\n')
      .filter((l) => l.length > 0)
      .map((l) => JSON.parse(l) as E);
  }
}
