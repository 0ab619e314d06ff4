// Reads what Node has no binding for (listxattr(2), shmat(2), msgrcv(2)): by a small C helper, or by python3 without cc.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { nativeBinary } from '../../shared/native-build.js';
import { HIDDEN_READ_SOURCE } from './hidden-read-source.js';

/**
 * The extended attributes of every one of `paths` (links not followed), the bytes of the shared memory segments `ipc.shm`
 * names (id, size) and of the messages of the queues `ipc.msg` names (left in place). The C helper costs a process start
 * of a few milliseconds where python3 took a tenth of a second of every generated trial; python3 stands in where there is
 * no cc (or `EJC_HIDDEN_READ=python`), and for a helper that fails.
 */
export function readHidden(paths: readonly string[], ipc: { shm: Array<[number, number]>; msg: number[] }): HiddenRead {
  const binary = process.env['EJC_HIDDEN_READ'] === 'python' ? null : nativeBinary('hidden-read', HIDDEN_READ_SOURCE);
  if (binary === null) return readWithPython(paths, ipc);
  const args = [...ipc.shm.flatMap(([id, size]) => ['-m', String(id), String(size)]), ...ipc.msg.flatMap((id) => ['-q', String(id)])];
  const input = Buffer.concat(paths.map((p) => Buffer.from(`${p}\0`, 'utf8')));
  const r = spawnSync(binary, args, { input, timeout: 60_000, maxBuffer: 1024 * 1024 * 1024 });
  if (r.status !== 0) return readWithPython(paths, ipc);
  const out: HiddenRead = { xattrs: [], shm: [], msg: [], unread: [] };
  const bytes = (h: string | undefined): Buffer => Buffer.from(h ?? '', 'hex');
  for (const line of r.stdout.toString('latin1').split('\n')) {
    const [kind, a, b, c] = line.split('\t');
    if (kind === 'x') out.xattrs.push([bytes(a).toString('utf8'), bytes(b).toString('utf8'), bytes(c)]);
    else if (kind === 's') out.shm.push([Number(a), bytes(b)]);
    else if (kind === 'q') out.msg.push([Number(a), bytes(b)]);
    else if (kind === 'u' && a !== undefined) out.unread.push(a);
  }
  return out;
}

/** What a reader found: each attribute (path, name, value), each segment's and queue's bytes, and what it could not read. */
export interface HiddenRead {
  xattrs: Array<[string, string, Buffer]>;
  shm: Array<[number, Buffer]>;
  msg: Array<[number, Buffer]>;
  unread: string[];
}

// Node has no binding for listxattr(2), shmat(2) or msgrcv(2): one python3 process reads them all (paths on stdin).
const READER = `
import base64, json, os, sys
req = json.load(sys.stdin)
out = {'xattrs': [], 'shm': [], 'msg': [], 'unread': []}
for p in req['paths']:
    try:
        for name in os.listxattr(p, follow_symlinks=False):
            out['xattrs'].append([p, name, base64.b64encode(os.getxattr(p, name, follow_symlinks=False)).decode()])
    except OSError:
        pass
if req['shm'] or req['msg']:
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
for i, size in req['shm']:
    addr = libc.shmat(i, None, 0o10000)  # SHM_RDONLY
    if addr in (None, ctypes.c_void_p(-1).value):
        out['unread'].append('System V shared memory segment %d' % i); continue
    out['shm'].append([i, base64.b64encode(ctypes.string_at(addr, size)).decode()])
    libc.shmdt(ctypes.c_void_p(addr))
for i in req['msg']:
    buf = ctypes.create_string_buffer(8 + 65536)
    got = b''
    n = 0
    while True:
        # MSG_COPY | IPC_NOWAIT: the n-th message, copied, left in the queue.
        r = libc.msgrcv(i, buf, 65536, n, 0o40000 | 0o4000)
        if r < 0: break
        got += buf.raw[8:8 + r]
        n += 1
    if n == 0 and ctypes.get_errno() not in (42, 2):
        out['unread'].append('System V message queue %d' % i)
    out['msg'].append([i, base64.b64encode(got).decode()])
json.dump(out, sys.stdout)
`;

export function readWithPython(paths: readonly string[], ipc: { shm: Array<[number, number]>; msg: number[] }): HiddenRead {
  const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
  // Isolated and without site packages: nothing of the machine's Python setup is loaded, and it starts in half the time.
  const r = spawnSync(python, ['-I', '-S', '-c', READER], { input: JSON.stringify({ paths, ...ipc }), encoding: 'utf8', timeout: 60_000, maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) {
    const why = r.error?.message ?? r.stderr.trim().split('\n').at(-1) ?? `exit ${r.status}`;
    return { xattrs: [], shm: [], msg: [], unread: [`extended attributes and System V objects (python3 could not read them: ${why})`] };
  }
  const parsed = JSON.parse(r.stdout) as { xattrs: Array<[string, string, string]>; shm: Array<[number, string]>; msg: Array<[number, string]>; unread: string[] };
  const bytes = (b64: string): Buffer => Buffer.from(b64, 'base64');
  return {
    xattrs: parsed.xattrs.map(([p, n, v]) => [p, n, bytes(v)]),
    shm: parsed.shm.map(([i, v]) => [i, bytes(v)]),
    msg: parsed.msg.map(([i, v]) => [i, bytes(v)]),
    unread: parsed.unread,
  };
}
