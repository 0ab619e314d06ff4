// A gate answer as protocol.md describes it: `refusal` only on a refuse, and a read failure without tier or ids.
import { describe, expect, it } from 'vitest';
import { decodeLine } from '../../harness/driver/decode.js';

const PENDING = { op: 'gate', id: 4, blocked: false } as const;
const line = (result: unknown): string => JSON.stringify({ type: 'response', id: 4, ok: true, result });
const EFFECT = { effectId: 'e-1', slot: 0, toolId: 'http_request', tier: 3, state: 'committed', action: 'replay', idempotencyKey: null };

describe('gate result shape', () => {
  it('reads a pass that omits refusal as refusal null', () => {
    expect(decodeLine(line({ decision: 'pass', effects: [EFFECT] }), PENDING)).toEqual({
      kind: 'result',
      id: 4,
      result: { decision: 'pass', effects: [EFFECT], refusal: null },
    });
  });

  it('reads a gate_read_failed refusal without tier or effectIds as tier null and no ids', () => {
    const decoded = decodeLine(line({ decision: 'refuse', effects: [], refusal: { code: 'gate_read_failed', message: 'unreadable' } }), PENDING);
    expect(decoded).toEqual({
      kind: 'result',
      id: 4,
      result: { decision: 'refuse', effects: [], refusal: { code: 'gate_read_failed', tier: null, effectIds: [], message: 'unreadable' } },
    });
  });

  it('still refuses a refusal without its code', () => {
    const decoded = decodeLine(line({ decision: 'refuse', effects: [], refusal: { message: 'no code' } }), PENDING);
    expect(decoded).toMatchObject({ name: 'ProtocolViolation' });
  });
});
