// A driver SIGKILLed under a moved clock leaves no libfaketime semaphore or segment in /dev/shm.
import { spawn } from 'node:child_process';
import { existsSync, openSync, closeSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { libfaketimeLibrary } from '../../harness/clock/clock-library.js';
import { faketimePairForDriver, faketimeShared, releaseFaketimePair, releaseFaketimeShared, removeDeadOwnersPairs } from '../../harness/clock/faketime-shared.js';

const lib = libfaketimeLibrary();
const leftovers = (pid: number) => [`/dev/shm/faketime_shm_${pid}`, `/dev/shm/sem.faketime_sem_${pid}`];

afterAll(() => releaseFaketimeShared());

describe.skipIf(lib === null)('libfaketime under SIGKILL', () => {
  it('without the shared pair a killed driver leaks its own pair (the failure this prevents)', async () => {
    const { pid, shifted } = await killedUnderFakeClock({});
    expect(shifted).toBe(true);
    expect(leftovers(pid).filter(existsSync)).toHaveLength(2);
    for (const file of leftovers(pid)) rmSync(file, { force: true });
  });

  it('removes the pair of a harness that died without exiting, and keeps a live one', async () => {
    const dead = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
      child.on('exit', () => resolve(child.pid!));
    });
    const stale = [`/dev/shm/sem.ejc_faketime_sem_${dead}_1`, `/dev/shm/ejc_faketime_shm_${dead}_1`];
    for (const file of stale) writeFileSync(file, '');
    const shared = faketimeShared()!;
    expect(stale.filter(existsSync)).toEqual([]);
    const live = [`/dev/shm/sem.${shared.split(' ')[0]!.slice(1)}`, `/dev/shm/${shared.split(' ')[1]!.slice(1)}`];
    removeDeadOwnersPairs();
    expect(live.filter(existsSync)).toHaveLength(2);
    releaseFaketimeShared();
    expect(live.filter(existsSync)).toEqual([]);
  });

  it('with the harness-owned pair it leaks nothing, and the pair is gone once released', async () => {
    const shared = faketimeShared();
    expect(shared).toMatch(/^\/ejc_faketime_sem_\d+_\d+ \/ejc_faketime_shm_\d+_\d+$/);
    const pairFiles = [`/dev/shm/sem.${shared!.split(' ')[0]!.slice(1)}`, `/dev/shm/${shared!.split(' ')[1]!.slice(1)}`];
    expect(pairFiles.filter(existsSync)).toHaveLength(2);
    const { pid, shifted } = await killedUnderFakeClock({ FAKETIME_SHARED: shared! });
    expect(shifted).toBe(true);
    expect(leftovers(pid).filter(existsSync)).toEqual([]);
    releaseFaketimeShared();
    expect(pairFiles.filter(existsSync)).toEqual([]);
  });

  it('each moved-clock driver gets its own pair: a semaphore left taken by a killed driver hangs no other driver', async () => {
    const [first, second] = [faketimePairForDriver()!, faketimePairForDriver()!];
    expect(first).toMatch(/^\/ejc_faketime_sem_\d+_\d+_d\d+ \/ejc_faketime_shm_\d+_\d+_d\d+$/);
    expect(second).not.toBe(first);
    // What a driver SIGKILLed inside libfaketime's critical section leaves: its pair's semaphore at 0 (glibc keeps the
    // value in the first 32 bits of the file).
    const fd = openSync(`/dev/shm/sem.${first.split(' ')[0]!.slice(1)}`, 'r+');
    writeSync(fd, Buffer.alloc(4), 0, 4, 0);
    closeSync(fd);
    // The failure this prevents: a process started on that pair hangs in libfaketime's constructor, before any code runs.
    const hung = spawn(process.execPath, ['-e', 'console.log(1)'], { env: { ...process.env, LD_PRELOAD: lib!, FAKETIME: '+2h', FAKETIME_SHARED: first }, stdio: ['ignore', 'pipe', 'ignore'] });
    let said = '';
    hung.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
    // A driver on its own pair starts and sees the moved clock (waited for, however busy the machine).
    const { shifted } = await killedUnderFakeClock({ FAKETIME_SHARED: second });
    expect(shifted).toBe(true);
    expect(said).toBe('');
    hung.kill('SIGKILL');
    await new Promise((resolve) => hung.on('exit', resolve));
    const files = [first, second].flatMap((v) => [`/dev/shm/sem.${v.split(' ')[0]!.slice(1)}`, `/dev/shm/${v.split(' ')[1]!.slice(1)}`]);
    expect(files.filter(existsSync)).toHaveLength(4);
    releaseFaketimePair(first);
    releaseFaketimeShared();
    expect(files.filter(existsSync)).toEqual([]);
  });
});

/** Starts node with the clock two hours ahead, reads its clock, SIGKILLs it and waits for its end. */
function killedUnderFakeClock(extra: Record<string, string>): Promise<{ pid: number; shifted: boolean }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, LD_PRELOAD: lib!, FAKETIME: '+2h', FAKETIME_DONT_FAKE_MONOTONIC: '1', ...extra };
    const child = spawn(process.execPath, ['-e', 'console.log(Date.now()); setInterval(() => {}, 1000)'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', () => resolve({ pid: child.pid!, shifted: Number(out.trim()) - Date.now() > 3_600_000 }));
  });
}
