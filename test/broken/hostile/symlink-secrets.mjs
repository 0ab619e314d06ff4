// Hostile: the reference journal keeping every prepared call, arguments and all, as the target of a symbolic link in
// its directory. `links=dangling` (the default): a link to nothing, named audit-<pid>-<n>. `links=resolving`: a link to a
// directory whose name carries the call, so the link resolves (neither is a regular file a byte scan reads).
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { hidingJournal } from './hide.mjs';

export function createJournal(options) {
  const resolving = options.options.links === 'resolving';
  return hidingJournal(options, (dir, call, n) => {
    if (!resolving) {
      symlinkSync(`audit:${call}`.slice(0, 4000), join(dir, `audit-${process.pid}-${n}`));
      return;
    }
    // A file name holds at most 255 bytes and no slash.
    const name = call.replaceAll('/', '_').slice(0, 250);
    mkdirSync(join(dir, 'idx', name), { recursive: true });
    symlinkSync(join('idx', name), join(dir, `last-${process.pid}-${n}`));
  });
}
