// Effect classes: the registry decides, tool metadata may only be more cautious, and classes meet tiers where they coincide.
import { sha256Hex } from '../sha256.js';
import type { KxmClass, KxmRegistry, KxmResolutionAction, Tier } from '../../shared/protocol/schemas.js';

export interface EffectiveClass {
  readonly effectClass: KxmClass;
  readonly declarationAccepted: boolean;
  readonly receiptQuery: string | null;
}

/** The class an effect runs under: the registry's (unknown when unregistered), or a declared class only when it is more cautious. */
export function effectiveClass(registry: KxmRegistry, toolId: string, declared: KxmClass | undefined): EffectiveClass {
  // Object.hasOwn: a tool named like an Object.prototype key must not read an inherited "entry".
  const entry = Object.hasOwn(registry.tools, toolId) ? registry.tools[toolId] : undefined;
  const base: KxmClass = entry?.class ?? 'unknown';
  const receiptQuery = entry?.receiptQuery ?? null;
  if (declared === undefined || declared === base) return { effectClass: base, declarationAccepted: true, receiptQuery };
  if (RISK[declared] > RISK[base]) return { effectClass: declared, declarationAccepted: true, receiptQuery };
  return { effectClass: base, declarationAccepted: false, receiptQuery };
}

/** The effect-journal tier a class coincides with, or null for classes tiers do not describe. */
export function tierOf(effectClass: KxmClass): Tier | null {
  if (effectClass === 'external-idempotent') return 1;
  if (effectClass === 'receipt-queryable') return 2;
  if (effectClass === 'unknown' || effectClass === 'external-non-idempotent') return 3;
  return null;
}

/** True for classes whose absence can be proven by querying the external system. */
export function isQueryable(effectClass: KxmClass): boolean {
  return effectClass === 'external-idempotent' || effectClass === 'receipt-queryable';
}

/** The deterministic idempotency key: one per assignment effect, identical across attempts so retries dedup. */
export function idempotencyKey(runId: string, assignmentId: string, slot: number, toolId: string): string {
  // The SHA-256 of the same UTF-8 bytes as ever (sha256.ts: no node:crypto in a driver).
  const digest = sha256Hex(JSON.stringify(['kxm-v1', runId, assignmentId, slot, toolId]));
  return `kxm1-${digest.slice(0, 32)}`;
}

/** Resolution actions a human may take on a blocked effect; each stays gated by its own evidence. */
export function permittedResolutions(): KxmResolutionAction[] {
  return ['mark_completed', 'confirm_absent_retry', 'compensate_retry', 'mark_failed'];
}

// Higher means more cautious recovery; a declaration may move up this scale, never down.
const RISK: Record<KxmClass, number> = {
  'read-only': 0,
  'workspace-mutation': 1,
  'external-idempotent': 2,
  'receipt-queryable': 3,
  unknown: 4,
  'external-non-idempotent': 5,
};
