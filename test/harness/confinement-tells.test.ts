// What a confined driver can read of the harness: no ejc-named init, a /proc of its own namespace that even root cannot
// unmount (CAP_SYS_ADMIN is gone from its bounding set), nor from inside a user namespace it makes. Real namespaces,
// through both wrappers: the compiled one a run uses where cc builds it, and the util-linux chain it falls back to.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { confineInitBinary } from '../../shared/confine-init.js';
import { confinement, confinementPrefix, UTIL_LINUX_PREFIX } from '../../shared/confinement.js';
import { resolveLaunch } from '../../harness/driver/launch.js';

const WRAPPERS: Array<[string, readonly string[]]> = [
  ['the compiled wrapper', confineInitBinary() === null ? [] : [confineInitBinary()!]],
  ['the util-linux chain', UTIL_LINUX_PREFIX],
];

// The init, the driver's shell and the few commands it is running: never the machine's hundreds.
const HANDFUL = 10;

// Runs a shell command the way a command launch runs: through the confinement prefix. Prints one `key=value` per line.
function confined(script: string): Record<string, string> {
  const spec = resolveLaunch({ kind: 'command', command: script }, process.cwd());
  expect(spec.confined).toBe(true);
  const r = spawnSync(spec.file, spec.args, { encoding: 'utf8', timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  return Object.fromEntries(r.stdout.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

describe.runIf(process.platform === 'linux' && confinement() === 'pid-namespace')('a confined driver', () => {
  it.runIf(spawnSync('cc', ['--version']).status === 0)('is started through the compiled wrapper where cc builds it', () => {
    expect(confineInitBinary()).not.toBeNull();
    expect(confinementPrefix()).toEqual([confineInitBinary()]);
  });

  it.each(WRAPPERS)('through %s: a plain sh init, its own few processes, a pid of its own, its exit status passed on', (_name, prefix) => {
    const run = (script: string) => spawnSync(prefix[0]!, [...prefix.slice(1), '/bin/sh', '-c', script], { encoding: 'utf8', timeout: 60_000 });
    const seen = run('echo "init=$(tr "\\0" " " < /proc/1/cmdline)"; echo "exe=$(readlink /proc/1/exe)"; echo "pid=$$"; echo "pids=$(ls /proc | grep -c "^[0-9]")"; echo "bounding=$(grep CapBnd /proc/self/status | cut -f2)"');
    expect(seen.status, seen.stderr).toBe(0);
    const kv = Object.fromEntries(seen.stdout.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    expect(kv.init).toMatch(/^\/bin\/sh -c /);
    expect(kv.init).not.toMatch(/ejc|confine/i);
    expect(kv.exe).toMatch(/^\/(usr\/)?bin\/(da)?sh$/);
    // Two drivers side by side are not both pid 1 (or 2): the first pid follows the init's own global one.
    expect(Number(kv.pid)).toBeGreaterThan(2);
    expect(Number(kv.pids)).toBeLessThanOrEqual(HANDFUL);
    expect((BigInt(`0x${kv.bounding}`) >> 21n) & 1n).toBe(0n);
    expect(run('exit 3').status).toBe(3);
    // SIGKILLed inside (strace does so at a syscall): 137, the shell's report of it.
    expect(run('kill -9 $$').status).toBe(137);
  });

  it('sees a plain sh as its init, its own few processes, and cannot unmount /proc, as root or from a user namespace', () => {
    const seen = confined([
      'echo init="$(tr "\\0" " " < /proc/1/cmdline)"',
      'echo pids="$(ls /proc | grep -c "^[0-9]")"',
      'echo bounding="$(grep CapBnd /proc/self/status | cut -f2)"',
      'umount /proc 2>/dev/null; echo umount=$?',
      'echo after="$(ls /proc | grep -c "^[0-9]")"',
      'echo userns="$(unshare -Urm sh -c "umount /proc 2>/dev/null; echo \\$?; ls /proc | grep -c ^[0-9]" | tr "\\n" " ")"',
    ].join('; '));
    expect(seen.init).toMatch(/^\/bin\/sh -c /);
    expect(seen.init).not.toMatch(/ejc/i);
    expect(execCount()).toBeGreaterThan(HANDFUL);
    expect(Number(seen.pids)).toBeLessThanOrEqual(HANDFUL);
    // Bit 21 is CAP_SYS_ADMIN.
    expect((BigInt(`0x${seen.bounding}`) >> 21n) & 1n).toBe(0n);
    expect(seen.umount).not.toBe('0');
    expect(Number(seen.after)).toBeLessThanOrEqual(HANDFUL);
    const [status, count] = seen.userns!.trim().split(/\s+/);
    expect([status, count], JSON.stringify(seen)).toHaveLength(2);
    expect(status).not.toBe('0');
    expect(Number(count)).toBeLessThanOrEqual(HANDFUL);
  });
});

// The machine's own process count, as the harness sees it: what an unmounted /proc would have shown.
function execCount(): number {
  return Number(spawnSync('sh', ['-c', 'ls /proc | grep -c "^[0-9]"'], { encoding: 'utf8' }).stdout.trim());
}
