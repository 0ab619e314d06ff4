// How drivers are confined: each in its own PID namespace (without CAP_SYS_ADMIN) where the kernel allows it, else the process-tree scan alone.
import { spawnSync } from 'node:child_process';
import { confineInitBinary, INIT_HANDOFF } from './confine-init.js';
import { EjcError } from './errors.js';

/**
 * `pid-namespace`: every driver is the only child of its own PID namespace's init, so when it dies the kernel kills everything it
 * started, whatever group, session or environment that moved to. `process-tree`: only the harness's scan of groups,
 * sessions, environment marks, parentage and file holders finds what a driver started.
 */
export type Confinement = 'pid-namespace' | 'process-tree';

/** Forces a confinement: `process-tree` (the fallback, e.g. to test it) or `pid-namespace` (a run that cannot have it is a harness error). */
export const CONFINEMENT_VAR = 'EJC_CONFINEMENT';

/**
 * The util-linux command that opens a PID namespace (and a private mount namespace for its own /proc); --kill-child
 * ends its init with unshare, so a group kill reaches it. The init is a small shell that gives the driver the pid
 * its own number would have outside (the next pid after the init's global one) instead of 1: two drivers running
 * side by side must not both be pid 1 to a journal that names a socket or a temporary file after its pid. It mounts
 * the namespace's /proc (pids a driver or strace inside it sees are the ones its /proc names), starts the driver with
 * the inherited stdin and passes on its exit status (137 when it was SIGKILLed, e.g. by strace at a syscall).
 */
const INIT = 'read -r s < /proc/self/stat; echo "${s%% *}" > /proc/sys/kernel/ns_last_pid && mount -t proc proc /proc' +
  // Without CAP_SYS_ADMIN (gone from the bounding set, so no exec brings it back) a driver, root or not, cannot unmount
  // this /proc to read the machine's process table, nor enter another namespace; a user namespace it makes gets the
  // mount locked. Nothing a journal needs to keep its state asks for it. util-linux ships setpriv beside unshare; where it
  // is missing the probe below fails and the run falls back to the process-tree scan, which its boundary says.
  ' && set -- setpriv --bounding-set=-sys_admin -- "$@"' +
  // Then the driver, started as the wrapper's init starts it.
  ` && ${INIT_HANDOFF}`;
// $0 is plain `sh`: the init's command line is the one thing of the harness a driver can read in its /proc.
export const UTIL_LINUX_PREFIX: readonly string[] = ['unshare', '--pid', '--fork', '--kill-child', '--mount', '--', '/bin/sh', '-c', INIT, 'sh'];

/** The confinement of this run: probed once per harness process (the first driver pays a few milliseconds). */
export function confinement(): Confinement {
  if (chosen === undefined) [chosen, prefix] = choose(process.env[CONFINEMENT_VAR]);
  return chosen;
}
let chosen: Confinement | undefined;
let prefix: readonly string[] = [];

/** The confinement this process chose, without probing for one (undefined before any driver was started). */
export function confinementChosen(): Confinement | undefined {
  return chosen;
}

/**
 * The command prefix that starts a program confined (empty under the fallback): the compiled wrapper
 * (confine-init.ts) where it builds and works here, else the util-linux chain. The two confine alike; the wrapper
 * saves three execs of every driver start: on an idle machine a confined driver's spawn-to-hello fell from 82–85 ms
 * to 75–77 ms (unconfined 67–69 ms).
 */
export function confinementPrefix(): readonly string[] {
  confinement();
  return prefix;
}

// Whether a new PID namespace can be made here with this prefix (root or CAP_SYS_ADMIN, and not forbidden by a
// container). Inside, the namespace's own /proc lists its init (1) and the probe: a handful of pids, not the machine's. The probe
// runs as drivers do (through setpriv, or the wrapper), so a machine without them falls back instead of starting no
// driver at all.
function works(wrap: readonly string[]): boolean {
  const r = spawnSync(wrap[0]!, [...wrap.slice(1), '/bin/sh', '-c', 'ls /proc'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] });
  const pids = r.stdout?.split('\n').filter((name) => /^\d+$/.test(name)) ?? [];
  return r.status === 0 && pids.includes('1') && pids.length <= 4;
}

function choose(forced: string | undefined): [Confinement, readonly string[]] {
  if (forced === 'process-tree') return ['process-tree', []];
  if (forced !== undefined && forced !== '' && forced !== 'pid-namespace') {
    throw new EjcError('usage', `${CONFINEMENT_VAR}=${forced} is not a confinement: use pid-namespace, process-tree, or leave it unset to probe`);
  }
  if (process.platform === 'linux') {
    const wrapper = confineInitBinary();
    if (wrapper !== null && works([wrapper])) return ['pid-namespace', [wrapper]];
    if (works(UTIL_LINUX_PREFIX)) return ['pid-namespace', UTIL_LINUX_PREFIX];
  }
  if (forced === 'pid-namespace') {
    throw new EjcError('environment', `${CONFINEMENT_VAR}=pid-namespace, but \`unshare --pid --fork\` cannot run here (util-linux missing, or the container forbids new PID namespaces): unset it to fall back to the process-tree scan`);
  }
  return ['process-tree', []];
}
