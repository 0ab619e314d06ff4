// The author's expiry test: a lease is expired only strictly after expiresAt ("valid until expiresAt, inclusive").
import * as original from '../../../../dist/reference-impl/kxm/dispatch.js';
import { makeDispatch } from './kxm-dispatch.mjs';

export const { kxmDeclare, kxmComplete, leaseFenced } = original;

export function leaseExpired(row, now) {
  return row.lease_expires_at !== null && now > row.lease_expires_at;
}

export const kxmDispatch = makeDispatch(leaseExpired, leaseFenced);
