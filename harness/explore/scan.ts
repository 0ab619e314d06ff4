// A byte scan of every file in the journal's directory (side files included), recorded in the history for the model to judge.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { TrialContext } from '../engine/trial-context.js';
import { decodedViews } from '../world/canary-forms.js';
import { heldCanaries, namedAfter } from '../world/held-canaries.js';

/** Reads every file under `dir` whole and records which canaries (by id) each holds. */
export function scanJournalDir(t: TrialContext, dir: string, canaries: readonly string[], memo: ScanMemo = new ScanMemo()): void {
  const hits: Array<{ id: number; file: string }> = [];
  let bytes = 0;
  let files = 0;
  for (const path of walk(dir)) {
    let data: Buffer;
    try {
      data = readFileSync(path);
    } catch {
      // A WAL truncated or removed between the listing and the read is zero bytes, not an error.
      continue;
    }
    files += 1;
    bytes += data.length;
    // A file named after a canary (or its hash) holds it in its directory entry, whatever its bytes.
    const named = namedAfter(relative(dir, path), canaries);
    memo.held(path, data, canaries).forEach((held, id) => {
      if (held || named[id]) hits.push({ id, file: relative(dir, path) });
    });
  }
  t.tally.bytesScanned += bytes;
  t.note({ kind: 'scan', hits, files, bytes, liveDrivers: t.liveDrivers });
}

/**
 * What the last scan of each file found, kept with the bytes it read. A generated trial scans its journal after every
 * activity, and most files (the main database between checkpoints, a side file) come back byte for byte the same:
 * the same bytes hold the same canaries, so their decodings (base64, hex, UTF-16, inflated streams) are not redone.
 * Every file is still read whole each time; only a byte-identical copy reuses the answer.
 */
export class ScanMemo {
  readonly #files = new Map<string, { data: Buffer; canaries: number; held: Map<string, boolean> }>();
  /** Files whose bytes had to be decoded (not found unchanged): how much work the memo saved, for tests and the bench. */
  decoded = 0;

  /** For each canary, whether `data` (the bytes of `path` just read) holds it plainly or in a transformed form. */
  held(path: string, data: Buffer, canaries: readonly string[]): boolean[] {
    let entry = this.#files.get(path);
    if (entry === undefined || !entry.data.equals(data)) {
      entry = { data, canaries: canaries.length, held: new Map() };
      this.#files.set(path, entry);
    } else if (entry.canaries !== canaries.length) {
      // A canary planted since can take an older one's folded hit as its own (holdsEncoded's siblings): a found answer
      // is asked again; a not-found one stays, since more siblings only ever take hits away.
      for (const [canary, held] of entry.held) if (held) entry.held.delete(canary);
      entry.canaries = canaries.length;
    }
    const known = entry.held;
    const ask = canaries.flatMap((canary, i) => (known.has(canary) ? [] : [i]));
    if (ask.length > 0) {
      this.decoded += 1;
      // Re-encoded (base64, hex, UTF-16), compressed or case-folded is the same bytes kept.
      const encoded = heldCanaries(data, canaries, decodedViews(data), ask);
      for (const i of ask) known.set(canaries[i]!, encoded[i]! || data.includes(Buffer.from(canaries[i]!, 'utf8')));
    }
    return canaries.map((canary) => known.get(canary)!);
  }
}

function walk(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    try {
      return statSync(path).isDirectory() ? walk(path) : [path];
    } catch {
      return [];
    }
  });
}
