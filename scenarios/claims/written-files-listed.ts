// The files a journal says hold its state, against what strace saw its driver write: every written file must be named.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { callPrepare, defaultCall } from '../support.js';
import { homedir, tmpdir } from 'node:os';
import { underStrace } from '../../harness/engine/syscall-sweep.js';
import { isInside } from '../../harness/world/byte-scan.js';
import { FILE_SYSCALLS, readTraceLines, writtenPaths } from '../../harness/world/written-files.js';

export const gapWrittenFiles: Scenario[] = [
  defineScenario({
    id: 'claims.written-files-listed',
    title: 'Every file the driver writes is in its journal directory or named by files: no journal state where the scans do not look',
    spec: 'effect-journal §11 (secrets absent from every file the journal keeps), §9, §10; ejc protocol: open/files list "every file that holds the journal\'s state"',
    tags: ['claims', 'run', 'strace'],
    needs: ['harness:strace'],
    description:
      'A driver under strace (every file it opens for writing, creates, renames or links into place) prepares and settles a committed and an ambiguous run effect, sweeps the run and checkpoints. ' +
      'Every regular file it wrote that still exists must lie under the journal directory or be named by `files` or `open`: the byte scans, the erasure checks and the claims read exactly those, so state kept anywhere else (an index, a cache, a debug log) is state no scenario looks at. ' +
      'A file written in a directory renamed later (at a close, say) is judged under its new name, and both names of a RENAME_EXCHANGE count. ' +
      'Devices, /proc and /sys, and the byte-compiled caches of the implementation\'s own code hold no journal state and are left out: a __pycache__ file counts as one only when a Python header opens it and the source it names is beside it (a regular file in /dev/shm is storage, judged like any other).',
    asserts: ['every file the driver wrote is under its journal directory or named by files/open'],
    async trial(t) {
      const log = t.harnessFile(join(t.dir, 'claims-written.strace'));
      const client = await t.driver('traced', { launch: underStrace(t.launch, { log, trace: FILE_SYSCALLS, decodeFds: true }) });
      const runId = t.rng.id('run');
      for (const [slot, settle] of [[0, 'committed'], [1, 'ambiguous']] as const) {
        const v = await client.op('prepare', callPrepare(t, { kind: 'run', runId, nodeId: 'node-a', attempt: 1 }, { ...defaultCall(), slot }));
        if (v.verdict !== 'proceed') continue;
        await client.op('settle', settle === 'committed'
          ? { effectId: v.effectId, state: 'committed', result: { modelValue: 'ok', truncated: false, summary: 'ok', outputMappingResult: 'ok' } }
          : { effectId: v.effectId, state: 'ambiguous', reason: 'the target did not answer' });
      }
      await client.op('runTerminal', { runId });
      await client.op('checkpoint', {});
      const { files } = await client.op('files', {});
      const listed = new Set([...files, ...(client.openedFiles ?? [])]);
      const journalDir = client.journalDir;
      // strace finishes its log when the traced driver exits.
      await client.close();
      const written = writtenPaths(readTraceLines(log), process.cwd());
      if (written.length === 0) {
        t.inconclusiveReason = 'strace saw the driver write no file at all: the trace failed or the journal keeps no files';
        return;
      }
      const unlisted = written.filter((p) => !isInside(p, journalDir) && !listed.has(p) && isRegularFile(p) && !holdsNoState(p, t.harnessFiles));
      t.expect('files the driver wrote outside its journal directory that neither files nor open names, by directory', [], byDirectory(unlisted, t.dir));
    },
  }),
];

// The kernel's own trees, the harness's own files, and the byte-compiled cache of the implementation's own modules. Only
// regular files are judged at all (a device is not one), so /dev/shm and /dev/mqueue, which are storage, are judged too.
function holdsNoState(path: string, harnessFiles: readonly string[]): boolean {
  return path.startsWith('/proc/') || path.startsWith('/sys/') || harnessFiles.includes(path) || isPythonBytecode(path);
}

/**
 * Whether `path` is what its name says, a byte-compiled Python module: in a __pycache__ directory, named <module>.<tag>.pyc
 * after a <module>.py beside that directory, opening with a bytecode magic number and flags, and, when the header
 * records its source's modification time and size, recording that source's. State in a file merely named so is state.
 */
export function isPythonBytecode(path: string): boolean {
  const parts = path.split(sep);
  const name = parts.at(-1) ?? '';
  if (parts.at(-2) !== '__pycache__' || !name.endsWith('.pyc')) return false;
  const source = join(dirname(dirname(path)), `${name.split('.')[0]}.py`);
  let head: Buffer;
  let src: ReturnType<typeof statSync>;
  try {
    src = statSync(source);
    head = readFileSync(path).subarray(0, 16);
  } catch {
    return false;
  }
  // PEP 552: a 2-byte magic then \r\n, a flags word (bit 0: hash-based), then the source's mtime and size, or its hash.
  if (head.length < 16 || head[2] !== 0x0d || head[3] !== 0x0a || head.readUInt32LE(4) > 3) return false;
  if ((head.readUInt32LE(4) & 1) === 1) return true;
  return head.readUInt32LE(8) === (Math.floor(Number(src.mtimeMs) / 1000) >>> 0) && head.readUInt32LE(12) === (Number(src.size) >>> 0);
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

// File names may carry a trial's id or a hash of its directory: the finding names their directories and counts, so it repeats.
function byDirectory(paths: readonly string[], trialDir: string): string[] {
  const counts = new Map<string, number>();
  for (const p of paths) counts.set(placeOf(dirname(p), trialDir), (counts.get(placeOf(dirname(p), trialDir)) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([dir, n]) => `${dir}/: ${n} file(s)`);
}

// Machine paths vary: the trial directory, the temporary directory and home become placeholders.
function placeOf(path: string, trialDir: string): string {
  if (path === trialDir || isInside(path, trialDir)) return join('<trial>', relative(trialDir, path));
  for (const [root, name] of [[tmpdir(), '<tmpdir>'], [homedir(), '~'], [process.cwd(), '<cwd>']] as const) {
    if (path === root || isInside(path, root)) return join(name, relative(root, path));
  }
  return path;
}
