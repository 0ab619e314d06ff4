// Open checkpoints only when its legacy clear changed a row: a checkpoint a reader deferred is never retried by a restart
// with nothing to clear, so the freed bytes stay in the WAL (§11). Its hello says sqliteWal: false ("WAL is an
// implementation detail"), so the blocked-reader checkpoint scenarios did not apply, while its files are SQLite in WAL mode.
import { claimJournal } from './claim-base.mjs';

export function createJournal(options) {
  return claimJournal('claim-wal-denied', options, (caps) => ({ ...caps, sqliteWal: false }), () => ({}), { 'reference-impl/maintenance.js': new URL('./own/edge-maintenance-skip-idle.mjs', import.meta.url).href });
}
