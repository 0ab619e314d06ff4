// What the hello's capabilities keep the harness from sending: an operation declared absent is never asked of the journal.
import type { Capabilities, OperationName } from '../../shared/protocol/schemas.js';

/**
 * Why the harness may not send `op` (with these params) to a journal with these capabilities, or null when it may.
 * A capability claimed false is probed by claims.operations-match-hello (through `JournalClient.probe`), never
 * assumed: every other caller goes through this rule, so no scenario or generated trial can bypass a claim.
 */
export function withheldBy(caps: Capabilities, op: OperationName, params: unknown): string | null {
  if ((op === 'sessionRead' || op === 'sessionSweep') && !caps.sessions) return 'capabilities.sessions: false';
  if (op.startsWith('kxm.') && caps.kxm !== true) return `capabilities.kxm: ${String(caps.kxm ?? 'absent')}`;
  if (op === 'seed' && !caps.seeding) return 'capabilities.seeding: false';
  if (op === 'resolve' && caps.resolution !== true) return `capabilities.resolution: ${String(caps.resolution ?? 'absent')}`;
  if (op === 'fault') {
    const { fault, enabled } = (params ?? {}) as { fault?: unknown; enabled?: unknown };
    if (enabled === true && typeof fault === 'string' && !(caps.faults as readonly string[]).includes(fault)) return `capabilities.faults without ${fault}`;
  }
  return null;
}
