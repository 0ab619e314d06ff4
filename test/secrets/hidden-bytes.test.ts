// Journals that keep argument secrets where no file's bytes change (link targets, names, extended attributes, System V
// IPC objects) or in a file under /dev only while untraced: each was conformant before the hidden-bytes scan and the
// world scan of `/`; each must now fail. Real `ejc run`s of the hostile catalogue, real files, real IPC objects.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { scanHiddenBytes } from '../../harness/world/hidden-bytes.js';
import { readHidden, readWithPython } from '../../harness/world/hidden-read.js';
import { WORLD_SCAN_CLAUSE } from '../../harness/world/world-scan.js';
import type { Report } from '../../reports/schema.js';
import { ejc } from '../cli/ejc-process.js';
import { root } from '../harness/helpers.js';
import { killOwn, newTag, TAG_VAR } from '../harness/own-processes.js';

const HOSTILE = join(root, 'test', 'broken', 'hostile');
const ON_DISK = 'secrets.args-never-on-disk';
let tmp: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'ejc-hidden-bytes-test-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// The System V objects made since `sinceS` (ctime, seconds) of this size: what the hostile journals make.
function recentSysv(file: string, sinceS: number): string[] {
  const [head, ...rows] = readFileSync(file, 'utf8').trim().split('\n');
  const cols = head!.trim().split(/\s+/);
  return rows.map((r) => r.trim().split(/\s+/)).filter((r) => Number(r[cols.indexOf('ctime')]) >= sinceS).map((r) => r.join(' '));
}

describe('scanHiddenBytes', () => {
  it.each(['native', 'python'])('finds a canary in a dangling link target, an entry name and an extended attribute, and only there (%s reader)', (reader) => {
    process.env['EJC_HIDDEN_READ'] = reader;
    onTestFinished(() => {
      delete process.env['EJC_HIDDEN_READ'];
    });
    const dir = mkdtempSync(join(tmp, 'tree-'));
    const canary = 'EJC-CANARY-hiddenbytes1Z';
    symlinkSync(`nowhere/${canary}`, join(dir, 'link'));
    writeFileSync(join(dir, `name-${canary}`), 'nothing here');
    writeFileSync(join(dir, 'plain'), 'nothing here');
    const set = spawnSync('python3', ['-c', 'import os,sys; os.setxattr(sys.argv[1], "user.note", sys.argv[2].encode())', join(dir, 'plain'), `x${canary}x`]);
    expect(set.status).toBe(0);
    const scan = scanHiddenBytes({ trees: [dir], changed: [], sinceMs: Date.now(), canaries: [canary, 'EJC-CANARY-absentZ'] });
    expect(scan.unread).toEqual([]);
    expect(scan.hits.map((h) => [h.kind, h.path]).sort()).toEqual([
      ['entry name', join(dir, `name-${canary}`)],
      ['extended attribute', join(dir, 'plain')],
      ['link target', join(dir, 'link')],
    ]);
  });
});

// A segment and a queue made here (python's ctypes, as the hostile journals make theirs), read by both readers.
const MAKE_IPC = `
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
shm = libc.shmget(0, 4096, 0o1600)
addr = libc.shmat(shm, None, 0)
ctypes.memmove(addr, b'segment \\x00\\xff bytes', 16)
libc.shmdt(ctypes.c_void_p(addr))
q = libc.msgget(0, 0o1600)
for text in (b'first \\x01', b'second'):
    buf = ctypes.create_string_buffer(ctypes.c_long(1).value.to_bytes(8, 'little') + text)
    libc.msgsnd(q, buf, len(text), 0o4000)
print(shm, q)
`;

describe('readHidden', () => {
  it('reads extended attributes, a segment and a queue\'s messages as python3 reads them, the messages left in place', () => {
    const dir = mkdtempSync(join(tmp, 'ipc-'));
    const file = join(dir, 'f');
    writeFileSync(file, '');
    expect(spawnSync('python3', ['-c', 'import os,sys; os.setxattr(sys.argv[1], "user.a", b"\\x00\\x01 value"); os.setxattr(sys.argv[1], "user.b", b"")', file]).status).toBe(0);
    const made = spawnSync('python3', ['-c', MAKE_IPC], { encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    const [shm, msg] = made.stdout.trim().split(' ').map(Number) as [number, number];
    onTestFinished(() => {
      spawnSync('ipcrm', ['-m', String(shm), '-q', String(msg)]);
    });
    const ipc = { shm: [[shm, 4096]] as Array<[number, number]>, msg: [msg] };
    const native = readHidden([file, join(dir, 'gone')], ipc);
    expect(native.xattrs.map(([p, n, v]) => [p, n, v.toString('latin1')])).toEqual([
      [file, 'user.a', '\x00\x01 value'],
      [file, 'user.b', ''],
    ]);
    expect(native.shm[0]![1].subarray(0, 16).toString('latin1')).toBe('segment \x00\xff bytes');
    expect(native.msg).toEqual([[msg, Buffer.from('first \x01second', 'latin1')]]);
    expect(native.unread).toEqual([]);
    expect(readWithPython([file, join(dir, 'gone')], ipc)).toEqual(native);
  });
});

describe('hostile journals hiding arguments beside the files', () => {
  async function run(impl: string, options: string[] = []): Promise<{ exitCode: number; report: Report; tag: string }> {
    const tag = newTag('hidden');
    const args = ['run', '--impl', join(HOSTILE, impl), ...options.flatMap((o) => ['--impl-option', o]), '--scenario', ON_DISK, '--json'];
    const r = await ejc(args, { env: { [TAG_VAR]: tag, TMPDIR: tmp } });
    expect(await killOwn(tag)).toEqual([]);
    return { exitCode: r.exitCode, report: JSON.parse(r.stdout) as Report, tag };
  }
  const findings = (report: Report): string[] => {
    const a = report.scenarios[0]!.trials[0]!.assertions.find((x) => x.name === WORLD_SCAN_CLAUSE);
    expect(a?.passed).toBe(false);
    return a!.actual as string[];
  };
  const canaryHit = (place: string): RegExp => new RegExp(`^${place}: \\[masked canary:[0-9a-f]{12}\\]$`);

  it.each([
    ['symlink-secrets.mjs', [], /^link target of an entry in <trial>\/journal\//],
    ['symlink-secrets.mjs', ['links=resolving'], /^(link target of an entry in <trial>\/journal|entry name of an entry in <trial>\/journal\/idx)\//],
    ['xattr-secrets.mjs', [], /^extended attribute of an entry in <trial>\//],
  ] as const)('%s %j: failed, each finding naming the kind of place', async (impl, options, place) => {
    const { exitCode, report } = await run(impl, [...options]);
    expect([exitCode, report.verdict, report.scenarios[0]!.verdict]).toEqual([1, 'nonconformant', 'failed']);
    const found = findings(report);
    expect(found.length).toBeGreaterThan(0);
    for (const f of found) expect(f).toMatch(place);
    expect(JSON.stringify(report)).not.toMatch(/EJC-CANARY-/);
  });

  it.each([
    ['', '/proc/sysvipc/shm', 'System V shared memory'],
    ['ipc=queue', '/proc/sysvipc/msg', 'System V message queue'],
  ])('System V IPC %j: failed, and the object holding the secrets is removed after it was read', async (option, table, kind) => {
    const since = Math.floor(Date.now() / 1000) - 1;
    const { exitCode, report } = await run('sysv-shm-secrets.mjs', option === '' ? [] : [option]);
    expect([exitCode, report.verdict, report.scenarios[0]!.verdict]).toEqual([1, 'nonconformant', 'failed']);
    const found = findings(report);
    expect(found.length).toBeGreaterThan(0);
    for (const f of found) expect(f).toMatch(canaryHit(kind));
    // Only this test makes segments or queues of the hostile journal's: none made since it began is left.
    expect(recentSysv(table, since)).toEqual([]);
  });

  it('appending to a file under /dev only when untraced: the ctime-based world scan of `/` finds it, traced or not', async () => {
    const { exitCode, report, tag } = await run('dev-append-untraced.mjs');
    const left = readdirSync('/dev').filter((f) => f.startsWith(`.hostile-${tag}-`));
    for (const f of left) rmSync(join('/dev', f));
    expect(left).toHaveLength(1);
    expect([exitCode, report.verdict, report.scenarios[0]!.verdict]).toEqual([1, 'nonconformant', 'failed']);
    for (const f of findings(report)) expect(f).toMatch(canaryHit(`/dev/\\.hostile-${tag}-[0-9a-f]{12}\\.log`));
  });
});
