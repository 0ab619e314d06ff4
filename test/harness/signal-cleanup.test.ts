// Ctrl-C of a harness process: installSignalCleanup must SIGKILL its driver groups and remove its temp dirs.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { liveGroupMembers } from '../../harness/driver/index.js';
import { fixtures, pidExists, root, waitUntilGone } from './helpers.js';

describe('signal cleanup', () => {
  it('kills the driver group, removes the trial dir and exits 130 on SIGINT', async () => {
    const runner = execa(process.execPath, [join(fixtures, 'drivers', 'sigint-runner.mjs'), root], { reject: false, buffer: false, stdin: 'ignore' });
    let driverPid = 0;
    let trialPath = '';
    try {
      const ready = await new Promise<string>((resolve, reject) => {
        let seen = '';
        runner.stdout.on('data', (chunk: Buffer) => {
          seen += chunk.toString('utf8');
          const line = seen.split('\n').find((l) => l.startsWith('ready '));
          if (line !== undefined) resolve(line);
        });
        runner.once('exit', (code) => reject(new Error(`runner exited early with ${String(code)}`)));
      });
      const [, pid, path] = ready.split(' ');
      driverPid = Number(pid);
      trialPath = path ?? '';
      expect(pidExists(driverPid)).toBe(true);
      expect(existsSync(trialPath)).toBe(true);
      runner.kill('SIGINT');
      const result = await runner;
      expect(result.exitCode).toBe(130);
      expect(liveGroupMembers(driverPid)).toEqual([]);
      expect(await waitUntilGone(driverPid)).toBe(true);
      expect(existsSync(trialPath)).toBe(false);
    } finally {
      // Whatever happened above, leave nothing behind.
      runner.kill('SIGKILL');
      if (driverPid > 0 && liveGroupMembers(driverPid).length > 0) process.kill(-driverPid, 'SIGKILL');
    }
  });
});
