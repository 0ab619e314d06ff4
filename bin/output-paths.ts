// Output paths are checked before the first trial: writable, on a real file system, of the right kind, and no two the same file.
import { randomBytes } from 'node:crypto';
import { constants, existsSync, statSync, type Stats } from 'node:fs';
import { access, mkdir, open, realpath, rm, statfs } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { EjcError } from '../shared/errors.js';

/** One file a command will write: `flag` and `given` name it in errors; `dir` is set when the flag takes a directory. */
export interface OutputTarget {
  readonly flag: string;
  readonly given: string;
  readonly file: string;
  readonly dir?: string;
}

/** A file the command reads, which no output may replace. */
export interface InputFile {
  readonly flag: string;
  readonly path: string;
}

/** Checks every output (and creates its directory) before anything runs; the first problem is a one-line error (exit 3). */
export async function checkOutputs(outputs: readonly OutputTarget[], inputs: readonly InputFile[] = []): Promise<void> {
  const seen: Array<{ target: OutputTarget; canonical: string; stats: Stats | null }> = [];
  for (const target of outputs) {
    const where = target.dir ?? dirname(target.file);
    await refuseSpecialFileSystem(target, where);
    checkKinds(target);
    const canonical = await canonicalPath(target.file);
    const stats = statOrNull(target.file);
    for (const other of seen) {
      if (sameFile(canonical, stats, other.canonical, other.stats)) {
        throw invalid(`${target.flag} ${target.given} is the same file as ${other.target.flag} ${other.target.given} (${target.file}); give each output its own file name`);
      }
    }
    for (const input of inputs) {
      if (sameFile(canonical, stats, await canonicalPath(resolve(input.path)), statOrNull(input.path))) {
        throw invalid(`${target.flag} ${target.given} would overwrite the ${input.flag} file ${input.path}; write the output somewhere else`);
      }
    }
    seen.push({ target, canonical, stats });
    await checkWritable(target, where);
  }
}

// Kernel file systems accept a path and then refuse (or never finish) the write: refuse them up front.
const SPECIAL_ROOTS = ['/proc', '/sys', '/dev'];
const SPECIAL_TYPES = new Map<number, string>([
  [0x9fa0, 'proc'], [0x62656572, 'sysfs'], [0x1cd1, 'devpts'], [0x27e0eb, 'cgroup'], [0x63677270, 'cgroup2'],
  [0x64626720, 'debugfs'], [0x74726163, 'tracefs'], [0x73636673, 'securityfs'], [0x6165676c, 'pstore'],
  [0xcafe4a11, 'bpf'], [0x62656570, 'configfs'], [0x65735543, 'fusectl'], [0x19800202, 'mqueue'],
  [0x42494e4d, 'binfmt_misc'], [0xde5e81e4, 'efivarfs'], [0x6e736673, 'nsfs'], [0xf97cff8c, 'selinuxfs'],
]);

async function refuseSpecialFileSystem(target: OutputTarget, where: string): Promise<void> {
  const existing = await realpath(nearestExisting(resolve(where)));
  // /dev/shm is an ordinary tmpfs, the one place under /dev a file may go.
  const root = SPECIAL_ROOTS.find((r) => (existing === r || existing.startsWith(`${r}${sep}`)) && !(existing === '/dev/shm' || existing.startsWith('/dev/shm/')));
  const type = root === undefined ? SPECIAL_TYPES.get((await statfs(existing)).type) : root.slice(1);
  if (type !== undefined) {
    throw invalid(`${target.flag} ${target.given} is in ${existing} on a special file system (${type}), not a place for files; give a path on a regular file system`);
  }
}

function checkKinds(target: OutputTarget): void {
  if (target.dir !== undefined) {
    const dir = statOrNull(target.dir);
    if (dir !== null && !dir.isDirectory()) throw invalid(`${target.flag} ${target.given} is a file, and ${target.flag} takes a directory (the output goes to ${join(target.given, basename(target.file))})`);
  }
  const file = statOrNull(target.file);
  if (file?.isDirectory() === true) throw invalid(`${target.flag} ${target.given}: ${target.file} is a directory; give a file path${target.dir === undefined ? ` such as ${join(target.given, 'junit.xml')}` : ' (or remove that directory)'}`);
  if (file !== null && !file.isFile()) throw invalid(`${target.flag} ${target.given}: ${target.file} exists and is not a regular file (a device, pipe or socket); give a file path`);
  const parent = nearestExisting(dirname(target.file));
  if (!statSync(parent).isDirectory()) throw invalid(`${target.flag} ${target.given}: ${parent} is a file, so no directory can be made there`);
}

// Creates the directory and a throwaway file in it: a read-only mount or missing permission fails here, not after the run.
async function checkWritable(target: OutputTarget, where: string): Promise<void> {
  const probe = join(where, `.ejc-write-check-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await mkdir(where, { recursive: true });
    const handle = await open(probe, 'wx');
    await handle.close();
  } catch (error) {
    // A recursive mkdir can report ENOENT for a read-only parent; the existing ancestor says what is really wrong.
    const ancestor = nearestExisting(where);
    const real = await access(ancestor, constants.W_OK).then(() => error, (accessError: unknown) => accessError);
    throw invalid(`${target.flag} ${target.given} is not writable: ${(real as Error).message}`, error);
  } finally {
    await rm(probe, { force: true });
  }
}

/** The real path a (possibly not yet existing) path will have: the existing ancestor resolved through symlinks, plus the rest. */
async function canonicalPath(path: string): Promise<string> {
  const absolute = resolve(path);
  const existing = nearestExisting(absolute);
  const rest = absolute.slice(existing.length);
  return `${await realpath(existing)}${rest}`;
}

function nearestExisting(path: string): string {
  let current = path;
  while (!existsSync(current) && dirname(current) !== current) current = dirname(current);
  return current;
}

function sameFile(a: string, aStats: Stats | null, b: string, bStats: Stats | null): boolean {
  // Hard links name one file by two paths: the inode decides when both exist.
  if (aStats !== null && bStats !== null) return aStats.dev === bStats.dev && aStats.ino === bStats.ino;
  return a === b;
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

function invalid(message: string, cause?: unknown): EjcError {
  return new EjcError('output_invalid', message, cause === undefined ? undefined : { cause });
}

/**
 * Refuses an --out directory that already holds a report unless --force: a second run must not silently replace the
 * evidence of the first. Checked before anything runs, so the refusal costs nothing.
 */
export function refuseExistingReport(out: string | undefined, force: boolean): void {
  if (out === undefined || force) return;
  const report = join(resolve(out), 'report.json');
  if (existsSync(report)) {
    throw invalid(`--out ${out} already holds a report (${report}); pass --force to replace it, or give a new directory (e.g. --out ${join(out, new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-'))})`);
  }
}
