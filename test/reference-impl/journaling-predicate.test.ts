import { describe, expect, it } from 'vitest';
import { FIRST_PARTY_TOOLS, isJournaled, type ToolDef } from '../../reference-impl/index.js';

const builtin = (id: string): ToolDef => {
  const def = FIRST_PARTY_TOOLS[id];
  if (!def) throw new Error(`no built-in ${id}`);
  return def;
};

describe('isJournaled (§3)', () => {
  it('http_request is journaled for non-GET methods only', () => {
    expect(isJournaled(builtin('http_request'), { method: 'GET', url: 'https://x' })).toBe(false);
    expect(isJournaled(builtin('http_request'), { url: 'https://x' })).toBe(false);
    expect(isJournaled(builtin('http_request'), { method: 'get' })).toBe(false);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']) {
      expect(isJournaled(builtin('http_request'), { method })).toBe(true);
    }
  });

  it('write_file is journaled for appends only', () => {
    expect(isJournaled(builtin('write_file'), { path: 'a', append: true })).toBe(true);
    expect(isJournaled(builtin('write_file'), { path: 'a' })).toBe(false);
    expect(isJournaled(builtin('write_file'), { path: 'a', append: 'true' })).toBe(false);
  });

  it('notify is benign because a first-party definition says so', () => {
    expect(isJournaled(builtin('notify'), { message: 'hi' })).toBe(false);
  });

  it('duplicationBenign from outside the engine is never honoured', () => {
    const mcp: ToolDef = { id: 'notify', performsExternalMutation: true, duplicationBenign: true };
    expect(isJournaled(mcp, {})).toBe(true);
    const annotated: ToolDef = { id: 'mcp__x', performsExternalMutation: true, annotations: { duplicationBenign: true, idempotentHint: true } };
    expect(isJournaled(annotated, {})).toBe(true);
    // A foreign tool borrowing a built-in name gets no per-dispatch exemption either.
    expect(isJournaled({ id: 'http_request', performsExternalMutation: true }, { method: 'GET' })).toBe(true);
  });

  it('read-only tools are never journaled, local mutations are', () => {
    expect(isJournaled({ id: 'web_search', performsExternalMutation: false, firstParty: true }, {})).toBe(false);
    expect(isJournaled({ id: 'shell', performsExternalMutation: true, firstParty: true }, { command: 'rm x' })).toBe(true);
  });
});
