// This process's mount table: every mount point with its file system type, as /proc/self/mountinfo lists them.
import { readFileSync } from 'node:fs';

/** A mount point (octal escapes undone) and its file system type. */
export interface Mount {
  readonly point: string;
  readonly type: string;
}

/** The mounts of this process's mount namespace, in the kernel's order; null where the table cannot be read (not Linux). */
export function mountTable(): Mount[] | null {
  let table: string;
  try {
    table = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return null;
  }
  const mounts: Mount[] = [];
  for (const line of table.split('\n')) {
    // <id> <parent> <dev> <root> <mount point> <options> [optional fields] - <fs type> <source> <super options>
    const [left, right] = line.split(' - ');
    const point = left?.split(' ')[4]?.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
    const type = right?.split(' ')[0];
    if (point !== undefined && type !== undefined) mounts.push({ point, type });
  }
  return mounts;
}
