// Writes a trial's wire transcript into its kept directory: every line both ways with time and seq, the kills and restarts, masked.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { maskWireLine, writeMasked } from '../masked-output.js';
import type { RecordEntry, TrialRecord } from './trial-record.js';

/** The transcript's file name inside a trial directory. */
export const TRANSCRIPT_FILE = 'transcript.jsonl';

/** Writes `<dir>/transcript.jsonl` (a header line, then one JSON object per entry) and returns its path. */
export async function writeTranscript(dir: string, trialId: string, record: TrialRecord): Promise<string> {
  const header = { kind: 'transcript', version: 1, trial: trialId, time: 'ms since the trial began' };
  const lines = [header, ...record.entries().map(transcriptEntry)].map((e) => `${JSON.stringify(e)}\n`);
  const path = join(dir, TRANSCRIPT_FILE);
  await writeMasked(path, lines.join(''));
  return path;
}

function transcriptEntry(e: RecordEntry): RecordEntry {
  const t = Math.round(e.t * 1000) / 1000;
  // A wire line is masked field by field (declared secret arguments), the whole file once more for canaries.
  return e.kind === 'wire' ? { ...e, t, line: maskWireLine(e.line) } : { ...e, t };
}

/** Removes everything in a trial directory but its transcript (a passing trial kept only for its transcript). */
export async function keepOnlyTranscript(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (name !== TRANSCRIPT_FILE) await rm(join(dir, name), { recursive: true, force: true });
  }
}
