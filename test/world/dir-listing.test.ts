// The world scan's directory listings: reused while a directory's mtime and ctime stand still, read again when either moves.
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listDir } from '../../harness/world/dir-listing.js';

const root = mkdtempSync(join(tmpdir(), 'ejc-dir-listing-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Until the kernel's coarse clock has moved on from the directory's last change (a tick is at most a few ms).
async function settled(dir: string): Promise<void> {
  const st = lstatSync(dir);
  while (Date.now() <= Math.max(st.mtimeMs, st.ctimeMs) + 20) await new Promise((r) => setTimeout(r, 5));
}

describe('listDir', () => {
  it('gives the same listing while the directory is unchanged, and a fresh one after an entry is made, removed or renamed', async () => {
    const dir = join(root, 'a');
    mkdirSync(dir);
    writeFileSync(join(dir, 'one'), '1');
    await settled(dir);
    const first = listDir(dir, lstatSync(dir), 10);
    expect([...first]).toEqual(['one']);
    expect(listDir(dir, lstatSync(dir), 10)).toBe(first);
    // Appending to a file changes no name: the listing stands.
    writeFileSync(join(dir, 'one'), '11', { flag: 'a' });
    expect(listDir(dir, lstatSync(dir), 10)).toBe(first);
    for (const change of [() => writeFileSync(join(dir, 'two'), '2'), () => renameSync(join(dir, 'two'), join(dir, 'three')), () => rmSync(join(dir, 'one'))]) {
      await settled(dir);
      const before = listDir(dir, lstatSync(dir), 10);
      change();
      const after = listDir(dir, lstatSync(dir), 10);
      expect(after).not.toBe(before);
    }
    expect([...listDir(dir, lstatSync(dir), 10)]).toEqual(['three']);
  });

  it('reads again a directory whose mtime was set back after a change (its ctime moved), and one changed too recently to trust', async () => {
    const dir = join(root, 'b');
    mkdirSync(dir);
    await settled(dir);
    const old = lstatSync(dir);
    const oldMtimeNs = lstatSync(dir, { bigint: true }).mtimeNs;
    const first = listDir(dir, old, 10);
    writeFileSync(join(dir, 'hidden'), 'x');
    // Set back to the nanosecond (utimes(2) through node keeps microseconds only).
    execFileSync('touch', ['-m', '-d', `@${oldMtimeNs / 1_000_000_000n}.${String(oldMtimeNs % 1_000_000_000n).padStart(9, '0')}`, dir]);
    expect(lstatSync(dir).mtimeMs).toBe(old.mtimeMs);
    expect([...listDir(dir, lstatSync(dir), 10)]).toEqual(['hidden']);
    expect(listDir(dir, lstatSync(dir), 10)).not.toBe(first);
    // Changed within the settling time: never kept, so never reused.
    const fresh = join(root, 'c');
    mkdirSync(fresh);
    const st = lstatSync(fresh);
    expect(listDir(fresh, st, 60_000)).not.toBe(listDir(fresh, st, 60_000));
  });

  it('reads a directory replaced by another at the same path (another inode) afresh', async () => {
    const dir = join(root, 'd');
    mkdirSync(dir);
    await settled(dir);
    const first = listDir(dir, lstatSync(dir), 10);
    rmSync(dir, { recursive: true });
    mkdirSync(dir);
    writeFileSync(join(dir, 'new'), 'n');
    expect([...listDir(dir, lstatSync(dir), 10)]).toEqual(['new']);
    expect(first).toEqual([]);
  });
});
