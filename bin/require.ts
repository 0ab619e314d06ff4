// `--require <capability>`: a harness capability a run must have, so a scenario family that would not run fails the run instead.
import { EjcError } from '../harness/errors.js';
import { straceAvailable } from '../harness/engine/syscall-sweep.js';
import { closestIds } from '../harness/select-scenarios.js';

// Each harness capability: how to tell it is missing, and what to do about it.
const CAPABILITIES: Record<string, { missing: () => boolean; fix: string }> = {
  strace: {
    missing: () => !straceAvailable(),
    fix: 'strace is not installed or ptrace is not permitted here; install strace (apt-get install strace) and allow ptrace (e.g. run the container with --cap-add SYS_PTRACE)',
  },
};

/** The capabilities --require accepts. */
export const REQUIRABLE = Object.keys(CAPABILITIES);

/** Throws before any trial when a required harness capability is missing (exit 3), or when a name is unknown. */
export function checkRequirements(names: readonly string[]): void {
  for (const raw of names) {
    const name = raw.replace(/^harness:/, '');
    const capability = CAPABILITIES[name];
    if (capability === undefined) {
      const near = closestIds(REQUIRABLE, name, 1);
      throw new EjcError('usage', `--require ${raw}: unknown harness capability${near.length > 0 ? ` (did you mean ${near[0]}?)` : ''}; known: ${REQUIRABLE.join(', ')}`);
    }
    if (capability.missing()) {
      throw new EjcError('harness_requirement', `--require ${name}: the scenarios that need it cannot run on this machine: ${capability.fix}; or drop --require ${name} to run without them (a warning names them)`);
    }
  }
}
