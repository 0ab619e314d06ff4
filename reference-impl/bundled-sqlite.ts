// better-sqlite3's JavaScript when the build bundled it into adapter.bundle.cjs; null in the tsc output (scripts/bundle-reference.mjs).
import type BetterSqlite3 from 'better-sqlite3';

/** The bundled package's constructor, and the version of the package it was bundled from. */
export interface BundledSqlite {
  readonly Database: typeof BetterSqlite3;
  readonly version: string;
}

/** Replaced by the bundle build with better-sqlite3's own lib/ and the version it read from its package.json. */
export const bundledSqlite: BundledSqlite | null = null;
