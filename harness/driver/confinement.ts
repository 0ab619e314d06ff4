// How drivers are confined: each as the init of its own PID namespace where the kernel allows it, else the process-tree scan alone.
import { spawnSync } from 'node:child_process';
import { EjcError } from '../errors.js';

/**
 * `pid-namespace`: every driver is the init of its own PID namespace, so when it dies the kernel kills everything it
 * started, whatever group, session or environment that moved to. `process-tree`: only the harness's scan of groups,
 * sessions, environment marks, parentage and file holders finds what a driver started.
 */
export type Confinement = 'pid-namespace' | 'process-tree';

/** Forces a confinement: `process-tree` (the fallback, e.g. to test it) or `pid-namespace` (a run that cannot have it is a harness error). */
export const CONFINEMENT_VAR = 'EJC_CONFINEMENT';

/**
 * The util-linux command that makes the driver its namespace's init; --kill-child ends it with unshare, so a group kill
 * reaches it. --mount-proc gives the namespace its own /proc (in a private mount namespace, nothing else changes), so
 * the pids a driver sees (its children's, strace's inside it) are the ones its /proc names.
 */
const UNSHARE = ['unshare', '--pid', '--fork', '--kill-child', '--mount-proc', '--'];

/** The confinement of this run: probed once per harness process (the first driver pays a few milliseconds). */
export function confinement(): Confinement {
  chosen ??= choose(process.env[CONFINEMENT_VAR]);
  return chosen;
}
let chosen: Confinement | undefined;

/** The command prefix that starts a program confined (empty under the fallback). */
export function confinementPrefix(): readonly string[] {
  return confinement() === 'pid-namespace' ? UNSHARE : [];
}

/** Whether a new PID namespace can be made here (root or CAP_SYS_ADMIN, and not forbidden by a container). */
export function namespaceWorks(): boolean {
  // `echo $$` prints 1 only when the shell really is the init of a new namespace.
  const r = spawnSync(UNSHARE[0]!, [...UNSHARE.slice(1), '/bin/sh', '-c', 'echo $$'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] });
  return r.status === 0 && r.stdout.trim() === '1';
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
