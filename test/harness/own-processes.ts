// Tests look only at processes they started: each run carries a unique EJC_TEST_TAG in its environment.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

export const TAG_VAR = 'EJC_TEST_TAG';

export interface OwnProcess {
  readonly pid: number;
  readonly state: string;
  readonly pgrp: number;
  readonly sid: number;
  readonly cmdline: string;
}

/** A tag no other test (of this or another worktree) uses. */
export function newTag(label: string): string {
  return `${label}-${process.pid}-${randomBytes(6).toString('hex')}`;
}

/** Every live (non-zombie) process whose environment carries `EJC_TEST_TAG=<tag>`. */
export function ownProcesses(tag: string): OwnProcess[] {
  const entry = Buffer.from(`${TAG_VAR}=${tag}\0`);
  const found: OwnProcess[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const env = readFileSync(`/proc/${name}/environ`);
      const at = env.indexOf(entry);
      if (at === -1 || (at > 0 && env[at - 1] !== 0)) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z' || fields[0] === 'X') continue;
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0+$/, '').replace(/\0/g, ' ');
      found.push({ pid: Number(name), state: fields[0]!, pgrp: Number(fields[2]), sid: Number(fields[3]), cmdline });
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** SIGKILLs whatever still carries the tag and waits until it is dead; returns what it found alive. */
export async function killOwn(tag: string): Promise<OwnProcess[]> {
  const left = ownProcesses(tag);
  const deadline = Date.now() + 120_000;
  for (let live = left; live.length > 0 && Date.now() < deadline; live = ownProcesses(tag)) {
    for (const p of live) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return left;
}

/** Keeps the machine busy with CPU-burning shells (more than there are cores) until `stop()`. */
export function startBurners(count: number): { stop(): void } {
  const burners: ChildProcess[] = [];
  for (let i = 0; i < count; i++) {
    burners.push(spawn('/bin/sh', ['-c', 'while :; do :; done'], { detached: true, stdio: 'ignore' }));
  }
  return {
    stop(): void {
      for (const b of burners) {
        try {
          if (b.pid !== undefined) process.kill(-b.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    },
  };
}
