// A full or read-only disk is the harness's problem, never the journal's: exit 3 with a clear one-line error for the
// report's own disk (the verdict still printed), an inconclusive trial naming the disk for a trial's, and no stale report left looking current. Each case runs on a private tmpfs
// (unshare -m): the host's mounts are never touched, and the test proves the mounts are gone afterwards.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { dir } from 'tmp-promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReportFile } from '../../reports/write-report.js';
import { buildReport } from '../reports/fixture.js';
import { EJC } from './ejc-process.js';

const BROKEN = fileURLToPath(new URL('../broken/broken-journal.mjs', import.meta.url));

// Runs inside a private mount namespace; every result goes to files in $W, outside the tmpfs mounts.
const SCRIPT = String.raw`
set -u
mount -t tmpfs -o size=4m tmpfs "$W/full" && mount -t tmpfs -o size=20m tmpfs "$W/roomy" && mount -t tmpfs -o size=1m,ro tmpfs "$W/ro" || exit 90
grep -c -E " $W/(full|roomy|ro) tmpfs " /proc/self/mounts > "$W/mounts-inside"
mkdir -p "$W/full/out" "$W/full/tmp"
cp "$W/older/report.json" "$W/full/out/report.json"
head -c 8m /dev/zero > "$W/full/filler" 2>/dev/null
df -B1 --output=avail "$W/full" | tail -1 > "$W/full-avail"
node "$EJC" run --scenario cp04.after-settle --out "$W/full/out" --force > "$W/1.out" 2> "$W/1.err"; echo $? > "$W/1.code"
ls -A "$W/full/out" > "$W/1.ls"
TMPDIR="$W/full/tmp" node "$EJC" run --scenario cp04.after-settle > "$W/2.out" 2> "$W/2.err"; echo $? > "$W/2.code"
TMPDIR="$W/roomy" node "$EJC" run --impl "$BROKEN" --impl-option defect=fills-tmpdir-mid-run --scenario cp04.after-settle > "$W/3.out" 2> "$W/3.err"; echo $? > "$W/3.code"
ls -A "$W/roomy" > "$W/3.ls"
node "$EJC" run --scenario cp04.after-settle --out "$W/ro/out" > "$W/4.out" 2> "$W/4.err"; echo $? > "$W/4.code"
`;

let tmp: { path: string; cleanup: () => Promise<void> };
const read = (name: string): string => readFileSync(join(tmp.path, name), 'utf8');

beforeAll(async () => {
  tmp = await dir({ unsafeCleanup: true });
  for (const d of ['full', 'roomy', 'ro']) mkdirSync(join(tmp.path, d));
  await writeReportFile(join(tmp.path, 'older'), buildReport());
  const ns = await execa('unshare', ['-m', '--propagation', 'private', 'sh', '-c', SCRIPT], {
    reject: false,
    stdin: 'ignore',
    env: { W: tmp.path, EJC, BROKEN, CI: 'true' },
  });
  if (ns.exitCode !== 0) throw new Error(`the private-mount namespace failed (exit ${ns.exitCode}): ${ns.stderr}; these tests need root with unshare -m and tmpfs mounts`);
});

afterAll(async () => {
  await tmp?.cleanup();
});

describe('full and read-only disks, on private tmpfs mounts', () => {
  it('the mounts existed inside the namespace only and left nothing on the host', () => {
    expect(read('mounts-inside').trim()).toBe('3');
    expect(read('full-avail').trim()).toBe('0');
    expect(readFileSync('/proc/self/mountinfo', 'utf8')).not.toContain(tmp.path);
    expect(existsSync(join(tmp.path, 'full', 'filler'))).toBe(false);
  });

  it('a full --out disk: exit 3, the verdict still printed, no stack trace, the older report moved aside, no temp file', () => {
    expect(read('1.code').trim()).toBe('3');
    expect(read('1.out')).toMatch(/^verdict: conformant/);
    expect(read('1.out')).toContain('report NOT written to');
    const err = read('1.err');
    expect(err).toMatch(/^ejc: output_write_failed: could not write .*\/full\/out\/report\.json: ENOSPC.*\(the file system is full\); the older file there was moved to .*report\.json\.stale/m);
    expect(err).not.toMatch(/^\s+at /m);
    expect(read('1.ls').trim().split('\n')).toEqual(['report.json.stale']);
  });

  it('a full TMPDIR before the run: exit 3 before any trial, naming TMPDIR', () => {
    expect(read('2.code').trim()).toBe('3');
    expect(read('2.out')).toBe('');
    expect(read('2.err')).toMatch(/^ejc: environment: .*\/full\/tmp \(TMPDIR\) has 0 KiB free; the trials need at least 16\.0 MiB/);
  });

  it('a TMPDIR that fills during a trial: the trial is inconclusive naming the full disk (exit 2), never a failure of the journal, and the trial directory removed', () => {
    expect(read('3.code').trim()).toBe('2');
    expect(read('3.out')).toMatch(/^verdict: inconclusive/m);
    expect(read('3.out')).toMatch(/cp04\.after-settle +inconclusive: harness fault: .*is full/);
    expect(read('3.out')).not.toMatch(/nonconformant/);
    expect(read('3.ls').trim()).toBe('');
  });

  it('a read-only --out: refused before the first trial', () => {
    expect(read('4.code').trim()).toBe('3');
    expect(read('4.err')).toMatch(/^ejc: output_invalid: --out .*\/ro\/out is not writable: EROFS/);
    expect(read('4.err')).not.toContain('[1/');
  });
});
