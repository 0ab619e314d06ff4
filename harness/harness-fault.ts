// The harness's own faults in a trial (its directory removed under it, unwritable, a full disk): never the journal's.
import { accessSync, constants, existsSync } from 'node:fs';
import { relative, isAbsolute } from 'node:path';
import { fullFileSystem } from './environment.js';

const IO_CODES = new Set(['ENOENT', 'EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'EIO']);

/**
 * Why this trial's evidence is about the harness's machine rather than the journal, or null. `created` are paths the
 * harness made for the trial (the trial directory first); `error` is what the scenario threw, if anything. Another
 * program cleaning the shared temp directory, a read-only remount or a full disk all end here: the trial is then
 * inconclusive with this cause, the run goes on and the report is written.
 */
export function harnessFault(created: readonly string[], error: unknown): string | null {
  for (const path of created) {
    if (!existsSync(path)) return `harness fault: ${path}, which the harness created for this trial, disappeared during it (something other than the harness removed it); the trial says nothing about the journal`;
  }
  const [root] = created;
  if (root !== undefined) {
    try {
      accessSync(root, constants.W_OK);
    } catch (e) {
      return `harness fault: the trial directory ${root} is no longer writable (${(e as NodeJS.ErrnoException).code ?? 'error'}); the trial says nothing about the journal`;
    }
    const full = fullFileSystem(root);
    if (full !== null) return `harness fault: ${full.message}`;
  }
  const err = error as NodeJS.ErrnoException | null;
  if (root !== undefined && typeof err?.code === 'string' && IO_CODES.has(err.code) && typeof err.path === 'string' && inside(err.path, root)) {
    return `harness fault: the harness's own I/O on ${err.path} failed (${err.code}: ${err.message}); the trial says nothing about the journal`;
  }
  return null;
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
