// A fixed scenario's restart hours or days later: a fresh driver on the same directory whose wall clock runs ahead.
import { clockLibrary, movedClockEnv } from '../clock/clock-library.js';
import type { JournalClient } from './journal-client.js';
import type { TrialContext } from './trial-context.js';

/** Whether the clock of a driver can be moved on this machine (libfaketime, or the shim cc builds). */
export function clockAvailable(): boolean {
  return clockLibrary() !== null;
}

/**
 * A fresh driver labelled `later` whose wall clock runs `hours` ahead. Only for scenarios that declare `harness:clock`,
 * so they are not applicable where the clock cannot move, never passed on an unmoved clock.
 */
export async function driverHoursLater(t: TrialContext, hours: number): Promise<JournalClient> {
  const env = movedClockEnv(hours);
  if (env === null) throw new Error('harness:clock is declared: the clock can be moved here');
  return t.driver('later', { env });
}
