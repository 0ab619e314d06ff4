// What every realistic broken journal shares: the reference journal (optionally with one of its modules replaced by the
// author's own version) and a side connection for the few places the bug lives in SQL.
import { register } from 'node:module';
import Database from 'better-sqlite3';

const DIST = new URL('../../../dist/', import.meta.url);

/** Loads the reference journal with `swaps` (dist-relative module path → replacement URL) in place; returns its factory. */
export async function referenceWith(swaps = {}) {
  const absolute = Object.fromEntries(Object.entries(swaps).map(([path, url]) => [new URL(path, DIST).href, url]));
  if (Object.keys(absolute).length > 0) register(new URL('./swap-hooks.mjs', import.meta.url), { data: { swaps: Object.fromEntries(Object.entries(absolute).map(([o, r]) => [o, r])) } });
  const { createReferenceJournal } = await import(new URL('reference-impl/index.js', DIST).href);
  return createReferenceJournal;
}

const OPS = ['open', 'close', 'prepare', 'settle', 'gate', 'reconcile', 'resolve', 'runTerminal', 'sessionRead', 'sessionSweep', 'checkpoint', 'listEffects', 'files', 'fault', 'seed', 'argsProjection', 'kxm.declare', 'kxm.dispatch', 'kxm.complete', 'kxm.recover', 'kxm.resolve', 'kxm.cancel', 'kxm.list'];

/** A journal named `name`: the reference with `overrides(reference, ctx)` replacing some of its operations. */
export function journal(createReferenceJournal, name, options, overrides = () => ({})) {
  let db = null;
  let path = null;
  const ctx = {
    crashpoint: (point) => options.crashpoint(point),
    db: () => (db ??= side(path)),
  };
  const reference = createReferenceJournal({ crashpoint: options.crashpoint, options: options.options, tierMode: options.options.tierMode ?? 'reconciling' });
  const own = overrides(reference, ctx);
  const out = Object.create(null);
  for (const op of OPS) out[op] = own[op] ?? ((p) => reference[op](p));
  const open = out.open;
  out.open = (p) => {
    const result = open(p);
    path = result.files[0];
    own.afterOpen?.(reference, ctx);
    return result;
  };
  const close = out.close;
  out.close = () => {
    db?.close();
    db = null;
    return close();
  };
  return Object.assign(out, { name: `realistic:${name}`, version: reference.version, capabilities: reference.capabilities });
}

/** Housekeeping on open that deletes committed rows older than `ageMs`, whether or not their run can still resume. */
export function expiresCommittedOnOpen(ageMs) {
  return () => ({
    afterOpen(_j, ctx) {
      const cutoff = new Date(Date.now() - ageMs).toISOString();
      ctx.db().prepare(`DELETE FROM run_effects WHERE state = 'committed' AND updated_at < ?`).run(cutoff);
    },
  });
}

/** Housekeeping on open that resolves unresolved rows untouched for `ageMs` as discarded, by the journal itself. */
export function discardsUnresolvedOnOpen(ageMs) {
  return () => ({
    afterOpen(_j, ctx) {
      const now = Date.now();
      ctx
        .db()
        .prepare(
          `UPDATE run_effects SET resolution = 'discarded', resolution_actor = 'journal: expired', resolution_at = ?
             WHERE resolution IS NULL AND state IN ('prepared', 'ambiguous', 'needs_attention') AND updated_at < ?`,
        )
        .run(new Date(now).toISOString(), new Date(now - ageMs).toISOString());
    },
  });
}

// The side connection keeps the contract's pragmas too: each journal here has exactly one bug, not two.
function side(path) {
  const db = new Database(path);
  db.pragma('busy_timeout = 5000');
  db.pragma('secure_delete = ON');
  return db;
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
