// What generation may use: the implementation's announced capabilities and what this machine offers (strace, libfaketime).
import type { Capabilities } from '../../shared/protocol/schemas.js';
import { straceAvailable } from '../engine/syscall-sweep.js';
import type { Features } from './case.js';
import { faketimeLibrary } from './schedule.js';

/** Features for an implementation on this machine; `env` can switch strace or the clock jumps off for a replay elsewhere. */
export function featuresFor(caps: Capabilities, env: { strace?: boolean; faketime?: boolean } = {}): Features {
  return {
    tierMode: caps.tierMode,
    sessions: caps.sessions,
    seeding: caps.seeding,
    outerTransactionProbe: caps.outerTransactionProbe,
    faults: [...caps.faults].sort(),
    points: [...caps.crashPoints].sort(),
    strace: (env.strace ?? true) && straceAvailable(),
    faketime: (env.faketime ?? true) && faketimeLibrary() !== null,
    kxm: caps.kxm === true,
    resolution: caps.resolution === true,
  };
}

/** The machine part of the features, as a replay command spells it. */
export function machineFeatures(f: Features): string {
  return [f.strace ? 'strace' : null, f.faketime ? 'faketime' : null].filter((x) => x !== null).join('+') || 'none';
}

/**
 * A generation profile: `mixed` uses everything the features allow, `runs` leaves sessions out (runs, races, faults only),
 * `dimensions` is mixed with ids shared across kinds, and look-alike public values (arb-dimensions.ts).
 */
export type Profile = 'mixed' | 'runs' | 'dimensions';

export function withProfile(f: Features, profile: Profile): Features {
  if (profile === 'dimensions') return { ...f, dimensions: true };
  return profile === 'runs' ? { ...f, sessions: false, outerTransactionProbe: false } : f;
}
