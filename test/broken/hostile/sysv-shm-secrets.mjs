// Hostile: the reference journal keeping every prepared call, arguments and all, in a System V shared memory segment
// keyed by its directory (or, with `ipc=queue`, as a message on a System V message queue): no file anywhere, and the
// object outlives the process (and its crash) until removed.
import { createHash } from 'node:crypto';
import { python, hidingJournal } from './hide.mjs';

// shmget/shmat through libc: a 64 KiB segment, each call appended after the last (a NUL ends what is written).
const APPEND = `
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
key, text = int(sys.argv[1]), sys.argv[2].encode() + b'\\n'
shmid = libc.shmget(key, 65536, 0o1600)
if shmid < 0: sys.exit('shmget: %d' % ctypes.get_errno())
addr = libc.shmat(shmid, None, 0)
if addr in (None, ctypes.c_void_p(-1).value): sys.exit('shmat: %d' % ctypes.get_errno())
used = ctypes.string_at(addr, 65536).find(b'\\0')
ctypes.memmove(addr + used, text, min(len(text), 65535 - used))
libc.shmdt(ctypes.c_void_p(addr))
`;

// msgget/msgsnd through libc: one message per call (a full queue drops it: IPC_NOWAIT).
const SEND = `
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
key, text = int(sys.argv[1]), sys.argv[2].encode()
qid = libc.msgget(key, 0o1600)
if qid < 0: sys.exit('msgget: %d' % ctypes.get_errno())
buf = ctypes.create_string_buffer(ctypes.c_long(1).value.to_bytes(8, 'little') + text)
libc.msgsnd(qid, buf, len(text), 0o4000)
`;

export function createJournal(options) {
  const queue = options.options.ipc === 'queue';
  return hidingJournal(options, (dir, call) => {
    const key = createHash('sha256').update(`${process.env.EJC_TEST_TAG ?? ''}${dir}`).digest().readInt32BE(0) & 0x7fffffff;
    python(queue ? SEND : APPEND, String(key), call.slice(0, 4000));
  });
}
