// Leaves a `sleep 3600` grandchild in a session of its own (a shell backgrounds `setsid sleep` and exits, so the
// sleeper is orphaned too), and returns once it really runs `sleep`, so every later kill has it to find.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export function leaveSetsidGrandchild() {
  const shell = spawnSync('/bin/sh', ['-c', 'setsid sleep 3600 </dev/null >/dev/null 2>&1 & echo $!'], { encoding: 'utf8' });
  const pid = Number(shell.stdout.trim());
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let i = 0; i < 10_000; i++) {
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      return;
    }
    if (cmdline === 'sleep\u00003600\u0000') return;
    Atomics.wait(pause, 0, 0, 2);
  }
}
