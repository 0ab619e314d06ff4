// The process table as the kill proof reads it: stat fields parsed right whatever the command name holds.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readProc, scanProcesses } from '../../harness/driver/proc-scan.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe.runIf(process.platform === 'linux')('proc-scan', () => {
  it('reads group, session, parent and start time of a process whose command name holds spaces and parentheses', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ejc-proc-scan-'));
    made.push(dir);
    // The kernel names the process after its executable: ") 1 2 (" would shift every field of a naive split.
    const exe = join(dir, 'a) 1 2 (b');
    copyFileSync('/bin/sleep', exe);
    const child = spawn(exe, ['30'], { detached: true, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const pid = child.pid!;
      const entry = readProc(pid);
      expect(entry).toMatchObject({ pid, ppid: process.pid, pgrp: pid, sid: pid });
      expect(entry!.start).toBeGreaterThanOrEqual(readProc(process.pid)!.start);
      expect(['R', 'S', 'D']).toContain(entry!.state);
      // A whole scan sees the same entry.
      expect(scanProcesses({ marks: false }).find((p) => p.pid === pid)).toMatchObject({ ppid: process.pid, pgrp: pid, sid: pid, start: entry!.start });
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  });
});
