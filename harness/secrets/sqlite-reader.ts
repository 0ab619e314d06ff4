// better-sqlite3 for the secret scans that decode a SQLite file (its values, its full-text terms): an optional dependency, loaded at first use.
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * The better-sqlite3 constructor, or null where the optional dependency is not installed (an install with
 * --omit=optional, or one whose native build failed): a --cmd journal runs without it, and the report lists the
 * `sqlite` dimension as not tested (harness/dimensions.ts). Required on first use, so a run that never opens a
 * SQLite file never loads the native addon.
 */
export function sqliteReader(): typeof BetterSqlite3 | null {
  if (loaded === undefined) {
    try {
      const Database = requireHere('better-sqlite3') as typeof BetterSqlite3;
      // The package's JS loads without its addon; opening a database is what needs the compiled part.
      new Database(':memory:').close();
      loaded = Database;
    } catch {
      loaded = null;
    }
  }
  return loaded;
}
let loaded: typeof BetterSqlite3 | null | undefined;

const requireHere = createRequire(import.meta.url);
