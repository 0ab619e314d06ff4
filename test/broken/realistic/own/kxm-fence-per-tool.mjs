// The author's lease fence: the current grant is the highest token recorded for the lease *by the same tool* ("each
// tool holds its own lease"), so a stale holder may still start a different tool under the lease it lost.
import * as original from '../../../../dist/reference-impl/kxm/dispatch.js';
import { stmt } from '../../../../dist/reference-impl/sqlite.js';
import { makeDispatch } from './kxm-dispatch.mjs';

export const { kxmDeclare, kxmComplete, leaseExpired } = original;

export function leaseFenced(db, row) {
  if (row.lease_id === null || row.fencing_token === null) return false;
  const top = stmt(db, 'SELECT max(fencing_token) AS top FROM kxm_effects WHERE lease_id = ? AND tool_id = ?').get(row.lease_id, row.tool_id);
  return top.top !== null && top.top > row.fencing_token;
}

export const kxmDispatch = makeDispatch(leaseExpired, leaseFenced);
