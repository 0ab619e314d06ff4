// A driver's wall clock moved hours ahead with libfaketime: how fixed scenarios restart a journal hours and days later.
import { faketimeShared } from '../explore/faketime-shared.js';
import { faketimeLibrary } from '../explore/schedule.js';

/** Whether the clock of a driver can be moved on this machine (libfaketime installed). */
export function clockAvailable(): boolean {
  return faketimeLibrary() !== null;
}

/**
 * The environment of a driver whose wall clock runs `hours` ahead, or null when libfaketime is missing: a scenario that
 * needs it declares `harness:clock`, so it is not applicable there rather than passed on an unmoved clock.
 */
export function movedClockEnv(hours: number): Record<string, string> | null {
  const lib = faketimeLibrary();
  if (lib === null) return null;
  const preload = process.env['LD_PRELOAD'];
  const shared = faketimeShared();
  return {
    LD_PRELOAD: preload ? `${lib}:${preload}` : lib,
    FAKETIME: `+${hours}h`,
    // Monotonic clocks stay real: timeouts and busy waits must not jump with the wall clock.
    FAKETIME_DONT_FAKE_MONOTONIC: '1',
    ...(shared === null ? {} : { FAKETIME_SHARED: shared }),
  };
}
