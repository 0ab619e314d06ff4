// Writing report files atomically, so a crash or a second reader never sees half a witness artifact.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from './schema.js';

/** Writes `<dir>/report.json` (pretty JSON) through a temporary file and a rename; returns the path. */
export async function writeReportFile(dir: string, report: Report): Promise<string> {
  await mkdir(dir, { recursive: true });
  const target = join(dir, 'report.json');
  await writeFileAtomic(target, `${JSON.stringify(report, null, 2)}\n`);
  return target;
}

/** Writes text to a sibling temporary file and renames it over the target. */
export async function writeFileAtomic(target: string, text: string): Promise<void> {
  const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeFile(temp, text);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
