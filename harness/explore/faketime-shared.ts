// One libfaketime shared-memory pair per harness process, so drivers killed under a moved clock leave nothing in /dev/shm.
import { spawnSync } from 'node:child_process';
import { unlinkSync } from 'node:fs';

let pair: { readonly value: string; readonly files: readonly string[] } | null | undefined;

/**
 * The FAKETIME_SHARED value every faked-clock driver starts with, or null when the faketime command is missing.
 * libfaketime preloaded without it creates its own semaphore and segment and removes them only on a clean exit,
 * so every SIGKILLed driver left two files in /dev/shm. The faketime command creates the pair for its child and
 * removes it when that child exits; killed by the child, it leaves the pair to this process, which removes it on exit.
 */
export function faketimeShared(): string | null {
  if (pair !== undefined) return pair?.value ?? null;
  const probe = spawnSync('faketime', ['-f', '+0', 'sh', '-c', 'printf "%s" "$FAKETIME_SHARED"; kill -9 $PPID'], { encoding: 'utf8', timeout: 10_000 });
  const match = /^\/(\S+) \/(\S+)$/.exec(probe.stdout?.trim() ?? '');
  if (match === null) {
    pair = null;
    return null;
  }
  pair = { value: `/${match[1]} /${match[2]}`, files: [`/dev/shm/sem.${match[1]}`, `/dev/shm/${match[2]}`] };
  process.on('exit', releaseFaketimeShared);
  return pair.value;
}

/** Removes the pair (drivers using it must be gone); the next faked-clock driver makes a new one. */
export function releaseFaketimeShared(): void {
  if (!pair) return;
  for (const file of pair.files) {
    try {
      unlinkSync(file);
    } catch {
      // Already gone: nothing is left behind either way.
    }
  }
  pair = undefined;
  process.off('exit', releaseFaketimeShared);
}
