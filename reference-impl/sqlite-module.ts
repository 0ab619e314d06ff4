// Which better-sqlite3 the reference journal opens databases with: the JS bundled beside it, or the installed package.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { bundledSqlite, type BundledSqlite } from './bundled-sqlite.js';

/** The constructor to call and the options every `new Database` gets. */
export interface SqliteModule {
  readonly Database: typeof BetterSqlite3;
  readonly options: BetterSqlite3.Options;
  /** Whether `Database` is the bundled JS (then no file of the installed package's lib/ is loaded). */
  readonly bundled: boolean;
}

/**
 * Loaded once, at the first open. The bundled JS (adapter.bundle.cjs) spares a driver resolving and loading the
 * package's dozen files (~9 ms of its start-up CPU, about a fifth); it is used only with the installed package's
 * compiled addon handed over by path and only when that install is the version it was bundled from, since the JS
 * and the addon's C++ side must match. Anything else loads the installed package as it is.
 */
export function sqliteModule(): SqliteModule {
  loaded ??= load();
  return loaded;
}
let loaded: SqliteModule | undefined;

function load(): SqliteModule {
  const manifest = requireHere.resolve('better-sqlite3/package.json');
  const addon = addonPath(dirname(manifest));
  const choice = chooseSqlite(bundledSqlite, () => installedVersion(manifest), addon);
  const Database = choice ?? (requireHere('better-sqlite3') as typeof BetterSqlite3);
  return { Database, options: addon === undefined ? {} : { nativeBinding: addon }, bundled: choice !== null };
}

/** The bundled constructor when it can stand for the installed package (same version, addon by path); null to load the package. */
export function chooseSqlite(bundled: BundledSqlite | null, installed: () => string | null, addon: string | undefined): typeof BetterSqlite3 | null {
  if (bundled === null || addon === undefined) return null;
  return installed() === bundled.version ? bundled.Database : null;
}

/**
 * The compiled addon of the better-sqlite3 install at `root`, when it is the file better-sqlite3's own lookup (the
 * `bindings` package) would load: build/Release/ with no build/ or build/Debug/ copy ahead of it in that lookup's
 * order. Undefined otherwise, and the lookup decides. Handed to `new Database` it spares every driver that lookup: a
 * stack trace walk and a require() that throws per path tried, ~7 ms of a driver's start-up CPU.
 */
export function addonPath(root: string): string | undefined {
  const release = join(root, 'build', 'Release', 'better_sqlite3.node');
  const ahead = [join(root, 'build', 'better_sqlite3.node'), join(root, 'build', 'Debug', 'better_sqlite3.node')];
  return existsSync(release) && !ahead.some((path) => existsSync(path)) ? release : undefined;
}

function installedVersion(manifest: string): string | null {
  try {
    const version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' ? version : null;
  } catch {
    return null;
  }
}

// Required, not imported: an ESM import of a CommonJS package makes node lex its source for exports, ~10 ms of every driver start.
const requireHere = createRequire(import.meta.url);
