// A byte scan of every file in the journal's directory (side files included), recorded in the history for the model to judge.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { TrialContext } from '../engine/trial-context.js';
import { decodedViews, holdsEncoded } from '../world/canary-forms.js';

/** Reads every file under `dir` whole and records which canaries (by id) each holds. */
export function scanJournalDir(t: TrialContext, dir: string, canaries: readonly string[]): void {
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
    // Re-encoded (base64, hex, UTF-16), compressed or case-folded is the same bytes kept.
    const views = decodedViews(data);
    canaries.forEach((canary, id) => {
      if (data.includes(Buffer.from(canary, 'utf8')) || holdsEncoded(data, canary, views, canaries)) hits.push({ id, file: relative(dir, path) });
    });
  }
  t.tally.bytesScanned += bytes;
  t.note({ kind: 'scan', hits, files, bytes, liveDrivers: t.liveDrivers });
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
