// SIGINT, SIGTERM and SIGHUP of a harness process on a busy machine: every driver tree is dead and the trial dir
// removed by the time the harness has exited (130 / 143 / 129), with no waiting after the fact.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures, root } from './helpers.js';
import { killOwn, newTag, ownProcesses, startBurners, TAG_VAR } from './own-processes.js';

let burners: { stop(): void };
// More CPU-bound processes than cores, for the whole file: the harness must clean up under load, not just when idle.
beforeAll(() => {
  burners = startBurners(4);
});
afterAll(() => burners.stop());

describe('signal cleanup', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('%s ends the whole driver tree and removes the trial dir before exiting %i', async (signal, code) => {
    await withRunner(newTag('signal'), [], async (runner, [driverPid, trialPath], tag) => {
      expect(existsSync(trialPath)).toBe(true);
      // The tree to end: the runner, its driver, and the driver's grandchild in a session of its own
      // (backgrounded by a shell, so it may still be on its way to exec `sleep`).
      await until(() => ownProcesses(tag).some((p) => p.cmdline === 'sleep 3600' && p.sid !== driverPid));
      expect(ownProcesses(tag).some((p) => p.pid === driverPid)).toBe(true);
      runner.kill(signal);
      const result = await runner;
      expect(result.exitCode).toBe(code);
      // Checked the moment the harness is gone: nothing of the tree may still run (zombies are dead).
      expect(ownProcesses(tag)).toEqual([]);
      expect(existsSync(trialPath)).toBe(false);
    });
  });

  // A vitest fork worker is stopped with SIGTERM and has no handler of its own: the harness's exit hook never ran, and a
  // trial in flight left its directory in /tmp (the unexplained /tmp/ejc-* directories) and its drivers running.
  it('SIGTERM of a program using the harness as a library, with no handler of its own, cleans up and still ends it by the signal', async () => {
    await withRunner(newTag('signal-library'), ['--library'], async (runner, [driverPid, trialPath], tag) => {
      await until(() => ownProcesses(tag).some((p) => p.cmdline === 'sleep 3600' && p.sid !== driverPid));
      runner.kill('SIGTERM');
      const result = await runner;
      expect([result.signal, result.exitCode]).toEqual(['SIGTERM', undefined]);
      expect(ownProcesses(tag)).toEqual([]);
      expect(existsSync(trialPath)).toBe(false);
    });
  });
});

// Starts the runner, waits for its ready line, runs `body`; whatever failed, leaves nothing behind.
async function withRunner(tag: string, extra: readonly string[], body: (runner: ReturnType<typeof spawnRunner>, ready: [number, string], tag: string) => Promise<void>): Promise<void> {
  const runner = spawnRunner(tag, extra);
  let trialPath = '';
  try {
    const ready = await readyLine(runner);
    trialPath = ready[1];
    await body(runner, ready, tag);
  } finally {
    runner.kill('SIGKILL');
    await killOwn(tag);
    if (trialPath !== '') rmSync(trialPath, { recursive: true, force: true });
  }
}

async function until(condition: () => boolean, maxMs = 60_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function spawnRunner(tag: string, extra: readonly string[] = []) {
  return execa(process.execPath, [join(fixtures, 'drivers', 'sigint-runner.mjs'), root, ...extra], {
    reject: false, buffer: false, stdin: 'ignore', env: { [TAG_VAR]: tag },
  });
}

function readyLine(runner: ReturnType<typeof spawnRunner>): Promise<[number, string]> {
  return new Promise((resolve, reject) => {
    let seen = '';
    runner.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const line = seen.split('\n').find((l) => l.startsWith('ready '));
      if (line !== undefined) {
        const [, pid, path] = line.split(' ');
        resolve([Number(pid), path ?? '']);
      }
    });
    void runner.then((r) => reject(new Error(`runner exited early with ${String(r.exitCode)}: ${String(r.stderr)}`)));
  });
}
