// The harness's small C helpers: each compiled once per checkout with the machine's cc, by whichever process needs it first.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** How a helper is compiled: a program (the default), or a shared library to preload (`-shared -fPIC`, linked with libdl). */
export type NativeKind = 'program' | 'preload';

/**
 * The helper `name` compiled from `source` into dist/native, named by the hash of its source and kind (an edited source
 * is rebuilt), or null where it cannot be had (no cc, a read-only install, a failed build): each caller then keeps its
 * slower way of doing the same. A build racing another's lands whole by rename.
 */
export function nativeBinary(name: string, source: string, kind: NativeKind = 'program'): string | null {
  const dir = fileURLToPath(new URL('../native/', import.meta.url));
  const hash = createHash('sha256').update(kind === 'program' ? source : `${kind}\0${source}`).digest('hex').slice(0, 12);
  const path = join(dir, `${name}-${hash}${kind === 'preload' ? '.so' : ''}`);
  try {
    accessSync(path, kind === 'program' ? constants.X_OK : constants.R_OK);
    return path;
  } catch {
    // Not built yet: build it below.
  }
  const staging = `${path}.${process.pid}`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${staging}.c`, source);
    const cc = spawnSync('cc', ccArgs(kind, `${staging}.c`, staging), { encoding: 'utf8', timeout: 60_000 });
    if (cc.status !== 0) return null;
    renameSync(staging, path);
    return path;
  } catch {
    return null;
  } finally {
    rmSync(`${staging}.c`, { force: true });
    rmSync(staging, { force: true });
  }
}

/** cc's arguments that compile `source` into `out` as a helper of this kind. */
export function ccArgs(kind: NativeKind, source: string, out: string): string[] {
  return kind === 'program' ? ['-O2', '-o', out, source] : ['-shared', '-fPIC', '-O2', '-o', out, source, '-ldl'];
}
