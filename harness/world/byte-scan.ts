// Scans every byte of the database files an implementation lists for planted canary strings.
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { sha256Hex } from '../canonical-json.js';

export interface ScanResult {
  bytesScanned: number;
  /** Per file: which canaries (by SHA-256, never by value) were found. */
  hits: Array<{ file: string; canarySha256: string; offset: number }>;
  files: Array<{ file: string; bytes: number }>;
}

/** Reads each file whole (a missing file is zero bytes: a truncated WAL may be gone) and finds every canary. */
export function scanForCanaries(files: readonly string[], canaries: readonly string[]): ScanResult {
  const result: ScanResult = { bytesScanned: 0, hits: [], files: [] };
  for (const file of files) {
    const bytes = existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
    result.bytesScanned += bytes.length;
    result.files.push({ file: basename(file), bytes: bytes.length });
    for (const canary of canaries) {
      const offset = bytes.indexOf(Buffer.from(canary, 'utf8'));
      if (offset >= 0) result.hits.push({ file: basename(file), canarySha256: sha256Hex(canary), offset });
    }
  }
  return result;
}

/** A fresh canary: recognisable in a hex dump, never written into a report by value. */
export function makeCanary(random: () => number): string {
  return `EJC-CANARY-${random().toString(36)}${random().toString(36)}`;
}
