// Writing output files atomically and durably, secrets masked: a crash, a full disk or a second reader never sees half a file.
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { EjcError } from '../shared/errors.js';
import { maskText } from '../shared/secrets/mask.js';
import type { Report } from './schema.js';

/** Writes `<dir>/report.json` (pretty JSON) through writeArtifact; returns the path. */
export async function writeReportFile(dir: string, report: Report): Promise<string> {
  const target = join(dir, 'report.json');
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw writeFailed(target, error, await setAsideStale(target));
  }
  await writeArtifact(target, `${JSON.stringify(report, null, 2)}\n`);
  return target;
}

/**
 * The one way the harness writes an output file (report, JUnit, HTML, transcripts): the text is
 * masked, written to a sibling temporary file, fsynced, renamed over the target, and the directory
 * is fsynced, so the target is either the old file or the whole new one, also after a power cut.
 * A failure is an EjcError (`output_write_failed`) that has moved any older file at the target aside,
 * so a stale file can never pass for this run's output.
 */
export async function writeArtifact(target: string, text: string): Promise<void> {
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx', 0o644);
    try {
      await handle.writeFile(maskText(text));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw writeFailed(target, error, await setAsideStale(target));
  }
  await syncDirectory(dirname(target), target);
}

/** @deprecated the old name of writeArtifact. */
export const writeFileAtomic = writeArtifact;

// The rename is only durable once the directory entry is: fsync the directory too.
async function syncDirectory(dir: string, target: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    // Some file systems cannot fsync a directory at all; the file itself is complete and synced.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EINVAL' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'EISDIR') return;
    throw new EjcError('output_write_failed', `wrote ${target}, but could not make its directory entry durable: ${describe(error)}`, { cause: error });
  }
}

// Renames (or else removes) an older file at the target and says which happened.
async function setAsideStale(target: string): Promise<string> {
  try {
    if (!(await stat(target)).isFile()) return 'nothing was written there';
  } catch {
    return 'nothing was written there';
  }
  const aside = `${target}.stale`;
  try {
    await rename(target, aside);
    return `the older file there was moved to ${aside} so it cannot pass for this run's output`;
  } catch {
    try {
      await rm(target, { force: true });
      return 'the older file there was removed so it cannot pass for this run\'s output';
    } catch {
      return `the older file at ${target} is still there and is NOT this run's output`;
    }
  }
}

function writeFailed(target: string, error: unknown, stale: string): EjcError {
  return new EjcError('output_write_failed', `could not write ${target}: ${describe(error)}; ${stale}`, { cause: error });
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const hint = code === 'ENOSPC' || code === 'EDQUOT' ? ' (the file system is full)' : code === 'EROFS' ? ' (the file system is read-only)' : '';
  return `${error instanceof Error ? error.message : String(error)}${hint}`;
}
