// How drivers are confined: each as the init of its own PID namespace where the kernel allows it, else the process-tree scan alone.
import { spawnSync } from 'node:child_process';
import { EjcError } from './errors.js';

/**
 * `pid-namespace`: every driver is the init of its own PID namespace, so when it dies the kernel kills everything it
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
  // An asynchronous list's stdin would be /dev/null: the protocol's pipe is handed over through fd 3.
  ' && exec 3<&0 && { "$@" <&3 3<&- & } && exec 3<&- && wait $! 2>/dev/null';
const UNSHARE = ['unshare', '--pid', '--fork', '--kill-child', '--mount', '--', '/bin/sh', '-c', INIT, 'ejc-init'];

/** The confinement of this run: probed once per harness process (the first driver pays a few milliseconds). */
export function confinement(): Confinement {
  chosen ??= choose(process.env[CONFINEMENT_VAR]);
  return chosen;
}
let chosen: Confinement | undefined;

/** The confinement this process chose, without probing for one (undefined before any driver was started). */
export function confinementChosen(): Confinement | undefined {
  return chosen;
}

/** The command prefix that starts a program confined (empty under the fallback). */
export function confinementPrefix(): readonly string[] {
  return confinement() === 'pid-namespace' ? UNSHARE : [];
}

/** Whether a new PID namespace can be made here (root or CAP_SYS_ADMIN, and not forbidden by a container). */
export function namespaceWorks(): boolean {
  // Inside, the namespace's own /proc lists its init (1) and the probe: a handful of pids, not the machine's.
  const r = spawnSync(UNSHARE[0]!, [...UNSHARE.slice(1), '/bin/sh', '-c', 'ls /proc'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] });
  const pids = r.stdout?.split('\n').filter((name) => /^\d+$/.test(name)) ?? [];
  return r.status === 0 && pids.includes('1') && pids.length <= 4;
}

function choose(forced: string | undefined): Confinement {
  if (forced === 'process-tree') return 'process-tree';
  if (forced !== undefined && forced !== '' && forced !== 'pid-namespace') {
    throw new EjcError('usage', `${CONFINEMENT_VAR}=${forced} is not a confinement: use pid-namespace, process-tree, or leave it unset to probe`);
  }
  if (process.platform === 'linux' && namespaceWorks()) return 'pid-namespace';
  if (forced === 'pid-namespace') {
    throw new EjcError('environment', `${CONFINEMENT_VAR}=pid-namespace, but \`unshare --pid --fork\` cannot run here (util-linux missing, or the container forbids new PID namespaces): unset it to fall back to the process-tree scan`);
  }
  return 'process-tree';
}
