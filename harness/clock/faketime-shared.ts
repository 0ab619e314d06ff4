// libfaketime shared-memory pairs the harness owns, one per moved-clock driver, so a killed driver leaves nothing in /dev/shm.
import { spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync, renameSync, unlinkSync } from 'node:fs';
import { harnessStart, readProc } from '../driver/proc-scan.js';

const SHM = '/dev/shm';
// Named after the owning harness (pid and start time), so a later harness can tell a dead owner's pair and remove it.
const OWNED = /^(?:sem\.)?ejc_faketime_(?:sem|shm)_(\d+)_(\d+)(?:_d\d+)?$/;

let pair: { readonly value: string; readonly files: readonly string[] } | null | undefined;
/** The per-driver copies handed out and not yet released, by their FAKETIME_SHARED value. */
const copies = new Map<string, readonly string[]>();
let copied = 0;

/**
 * A FAKETIME_SHARED value for one moved-clock driver: a copy of the harness's pair (never used by a driver itself, so
 * its semaphore is always free), or null when the faketime command is missing. Each driver needs its own: libfaketime
 * takes the pair's semaphore in every process it starts in, and a driver SIGKILLed while holding it left the semaphore
 * taken, so every later moved-clock driver sharing the pair hung before its hello (an exploration trial went
 * inconclusive that way). The driver's process releases it (releaseFaketimePair) once the driver and its tree are gone.
 */
export function faketimePairForDriver(): string | null {
  const template = faketimeShared();
  if (template === null || !pair) return null;
  copied += 1;
  const files = pair.files.map((file) => `${file}_d${copied}`);
  try {
    pair.files.forEach((file, i) => copyFileSync(file, files[i]!));
  } catch {
    // /dev/shm refused a copy (full, say): the shared pair still moves the clock, as before per-driver pairs.
    for (const file of files) unlinkQuietly(file);
    return template;
  }
  const value = pair.value
    .split(' ')
    .map((name) => `${name}_d${copied}`)
    .join(' ');
  copies.set(value, files);
  return value;
}

/** Removes one driver's copy (a value not handed out by faketimePairForDriver is left alone). */
export function releaseFaketimePair(value: string | undefined): void {
  const files = value === undefined ? undefined : copies.get(value);
  if (files === undefined) return;
  for (const file of files) unlinkQuietly(file);
  copies.delete(value!);
}

/**
 * The FAKETIME_SHARED value every faked-clock driver starts with, or null when the faketime command is missing.
 * libfaketime preloaded without it creates its own semaphore and segment and removes them only on a clean exit,
 * so every SIGKILLed driver left two files in /dev/shm. The faketime command creates a pair for its child and
 * removes it when that child exits; killed by the child, it leaves the pair to this process, which renames it after
 * itself and removes it on exit. A pair whose owner died without exiting (killed) is removed by the next harness.
 */
export function faketimeShared(): string | null {
  if (pair !== undefined) return pair?.value ?? null;
  removeDeadOwnersPairs();
  const probe = spawnSync('faketime', ['-f', '+0', 'sh', '-c', 'printf "%s" "$FAKETIME_SHARED"; kill -9 $PPID'], { encoding: 'utf8', timeout: 10_000 });
  const match = /^\/(\S+) \/(\S+)$/.exec(probe.stdout?.trim() ?? '');
  if (match === null) {
    pair = null;
    return null;
  }
  const owner = `${process.pid}_${harnessStart()}`;
  const sem = `ejc_faketime_sem_${owner}`;
  const shm = `ejc_faketime_shm_${owner}`;
  let renamed = renameQuietly(`${SHM}/sem.${match[1]}`, `${SHM}/sem.${sem}`);
  if (renamed && !renameQuietly(`${SHM}/${match[2]}`, `${SHM}/${shm}`)) {
    // Keep the two names consistent: the semaphore goes back beside its segment.
    renameQuietly(`${SHM}/sem.${sem}`, `${SHM}/sem.${match[1]}`);
    renamed = false;
  }
  if (!renamed) {
    // Not where glibc keeps them: use the pair as faketime named it (removed on exit all the same).
    pair = { value: `/${match[1]} /${match[2]}`, files: [`${SHM}/sem.${match[1]}`, `${SHM}/${match[2]}`] };
    process.on('exit', releaseFaketimeShared);
    return pair.value;
  }
  pair = { value: `/${sem} /${shm}`, files: [`${SHM}/sem.${sem}`, `${SHM}/${shm}`] };
  process.on('exit', releaseFaketimeShared);
  return pair.value;
}

/** Removes the pair and every copy not yet released (drivers using them must be gone); the next faked-clock driver makes a new one. */
export function releaseFaketimeShared(): void {
  for (const value of [...copies.keys()]) releaseFaketimePair(value);
  if (!pair) return;
  for (const file of pair.files) unlinkQuietly(file);
  pair = undefined;
  process.off('exit', releaseFaketimeShared);
}

/** Removes the pairs of harness processes that are gone (a reused pid has another start time). */
export function removeDeadOwnersPairs(): void {
  let names: string[];
  try {
    names = readdirSync(SHM);
  } catch {
    return;
  }
  for (const name of names) {
    const m = OWNED.exec(name);
    if (m === null) continue;
    const owner = readProc(Number(m[1]));
    if (owner === null || owner.start !== Number(m[2])) unlinkQuietly(`${SHM}/${name}`);
  }
}

function renameQuietly(from: string, to: string): boolean {
  try {
    renameSync(from, to);
    return true;
  } catch {
    return false;
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone: nothing is left behind either way.
  }
}
