// What a journal can have written: every file under its directory for the byte scan, and the files an strace log shows it wrote.
import { mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dir } from 'tmp-promise';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { journalFiles, scanForCanaries } from '../../harness/world/byte-scan.js';
import { readTraceLines, writeTargets, writtenPaths } from '../../harness/world/written-files.js';
import { isPythonBytecode } from '../../scenarios/claims/written-files-listed.js';

let tmp: { path: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  tmp = await dir({ unsafeCleanup: true });
});
afterEach(async () => {
  await tmp.cleanup();
});

describe('journalFiles', () => {
  it('lists every file under the directory, recursively and sorted, plus listed files outside it and listed files that are gone', () => {
    const j = join(tmp.path, 'journal');
    mkdirSync(join(j, 'sub', 'deeper'), { recursive: true });
    writeFileSync(join(j, 'effects.db'), 'db');
    writeFileSync(join(j, 'sub', 'deeper', 'side.log'), 'EJC-CANARY-xyz');
    writeFileSync(join(tmp.path, 'elsewhere.db'), 'x');
    symlinkSync(j, join(j, 'sub', 'loop'));
    const files = journalFiles(j, [join(j, 'effects.db'), join(j, 'effects.db-wal'), join(tmp.path, 'elsewhere.db')]);
    expect(files).toEqual([join(j, 'effects.db'), join(j, 'sub', 'deeper', 'side.log'), join(j, 'effects.db-wal'), join(tmp.path, 'elsewhere.db')]);
    const scan = scanForCanaries(files, ['EJC-CANARY-xyz'], j);
    expect(scan.hits).toEqual([{ file: join('sub', 'deeper', 'side.log'), canarySha256: expect.stringMatching(/^[0-9a-f]{64}$/), offset: 0 }]);
    expect(scan.files.map((f) => [f.file, f.bytes])).toEqual([['effects.db', 2], [join('sub', 'deeper', 'side.log'), 14], ['effects.db-wal', 0], [join(tmp.path, 'elsewhere.db'), 1]]);
  });
});

describe('an strace -f -y log', () => {
  it('yields the files opened for writing, created, renamed or linked into place, and what the writes went to', () => {
    const log = join(tmp.path, 'trace.log');
    writeFileSync(log, [
      '100 openat(AT_FDCWD</work>, "/etc/ssl/openssl.cnf", O_RDONLY) = 3</etc/ssl/openssl.cnf>',
      '100 openat(AT_FDCWD</work>, "/j/effects.db", O_RDWR|O_CREAT|O_CLOEXEC, 0644) = 18</j/effects.db>',
      '101 openat(AT_FDCWD</work>, "side.log", O_WRONLY|O_CREAT|O_APPEND <unfinished ...>',
      '100 write(1<pipe:[77]>, "{\\"type\\":\\"response\\"}\\n", 21) = 21',
      '101 <... openat resumed>) = 19</work/side.log>',
      '100 openat(AT_FDCWD</work>, "/nope", O_WRONLY|O_CREAT, 0666) = -1 EACCES (Permission denied)',
      '100 rename("/j/a.tmp", "relative\\040name") = 0',
      '100 renameat2(AT_FDCWD</work>, "/j/b.tmp", 7</out/dir>, "b.json", RENAME_NOREPLACE) = 0',
      '100 creat("/tmp/made", 0644) = 20</tmp/made>',
      '100 pwrite64(18</j/effects.db>, "x", 1, 0) = 1',
      '100 write(19</work/side.log>, "raw", 3) = 3',
      '100 write(17<anon_inode:[eventfd]>, "\\1\\0", 8) = 8',
      '100 sendto(21<socket:[9]>, "q", 1, 0, NULL, 0) = 1',
      '+++ exited with 0 +++',
    ].join('\n'));
    const lines = readTraceLines(log);
    expect(writtenPaths(lines, '/work')).toEqual(['/j/effects.db', '/work/side.log', '/work/relative name', '/out/dir/b.json', '/tmp/made']);
    expect(writeTargets(lines)).toEqual({ durable: 1, plainFileWrites: 1, elsewhere: 1, protocol: 1 });
  });

  it('carries written files through a later rename of their directory, both ways through RENAME_EXCHANGE, and reads open_by_handle_at', () => {
    const log = join(tmp.path, 'trace.log');
    writeFileSync(log, [
      '100 openat(AT_FDCWD</work>, "/var/tmp/idx.live/attention.json", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 5</var/tmp/idx.live/attention.json>',
      '100 rename("/var/tmp/idx.live", "/var/tmp/idx.closed") = 0',
      '100 openat(AT_FDCWD</work>, "/j/effects.db", O_RDWR|O_CREAT, 0644) = 6</j/effects.db>',
      '100 renameat2(AT_FDCWD</work>, "/var/tmp/stash.db", AT_FDCWD</work>, "/j/effects.db", RENAME_EXCHANGE) = 0',
      '100 open_by_handle_at(3</>, {handle_bytes=8, handle_type=1}, O_RDWR) = 7</srv/state.bin>',
    ].join('\n'));
    expect(writtenPaths(readTraceLines(log), '/work')).toEqual([
      '/var/tmp/idx.live/attention.json', '/var/tmp/idx.closed', '/var/tmp/idx.closed/attention.json', '/j/effects.db', '/var/tmp/stash.db', '/srv/state.bin',
    ]);
  });
});

describe('isPythonBytecode', () => {
  it('is true of a byte-compiled module whose header matches its source, false of state merely named so', () => {
    const src = join(tmp.path, 'mod.py');
    writeFileSync(src, 'x = 1\n');
    mkdirSync(join(tmp.path, '__pycache__'));
    const st = statSync(src);
    const header = Buffer.alloc(16);
    header.set([0xa7, 0x0d, 0x0d, 0x0a]);
    header.writeUInt32LE(Math.floor(st.mtimeMs / 1000) >>> 0, 8);
    header.writeUInt32LE(st.size, 12);
    const pyc = join(tmp.path, '__pycache__', 'mod.cpython-311.pyc');
    writeFileSync(pyc, Buffer.concat([header, Buffer.from('marshalled code')]));
    expect(isPythonBytecode(pyc)).toBe(true);
    // Named like bytecode, with no source beside its directory, or with a header that is not one: journal state.
    const orphan = join(tmp.path, '__pycache__', 'attention.cpython-311.pyc');
    writeFileSync(orphan, Buffer.concat([header, Buffer.from('[{"effectId":"1"}]')]));
    expect(isPythonBytecode(orphan)).toBe(false);
    writeFileSync(pyc, '[{"effectId":"1","state":"prepared"}]');
    expect(isPythonBytecode(pyc)).toBe(false);
  });
});

