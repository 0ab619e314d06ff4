// The reference journal hands better-sqlite3 its addon's path only where that is the file better-sqlite3's own lookup loads,
// and uses the better-sqlite3 JS bundled beside it only with that path and for the version it was bundled from.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type BetterSqlite3 from 'better-sqlite3';
import { addonPath, chooseSqlite, sqliteModule } from '../../reference-impl/sqlite-module.js';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

function install(...files: string[]): string {
  root = mkdtempSync(join(tmpdir(), 'ejc-addon-'));
  for (const file of files) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), '');
  }
  return root;
}

describe('addonPath', () => {
  it('is build/Release/better_sqlite3.node when nothing comes before it in the bindings lookup', () => {
    expect(addonPath(install('build/Release/better_sqlite3.node'))).toBe(join(root, 'build/Release/better_sqlite3.node'));
  });

  it('leaves the choice to the lookup where a build/ or Debug build would be loaded first, or there is no Release build', () => {
    expect(addonPath(install('build/Release/better_sqlite3.node', 'build/Debug/better_sqlite3.node'))).toBeUndefined();
    rmSync(root, { recursive: true, force: true });
    expect(addonPath(install('build/Release/better_sqlite3.node', 'build/better_sqlite3.node'))).toBeUndefined();
    rmSync(root, { recursive: true, force: true });
    expect(addonPath(install('lib/binding/node-v115-linux-x64/better_sqlite3.node'))).toBeUndefined();
  });

  it('finds the addon of the installed better-sqlite3', () => {
    root = mkdtempSync(join(tmpdir(), 'ejc-addon-'));
    expect(addonPath(join(process.cwd(), 'node_modules', 'better-sqlite3'))).toMatch(/build\/Release\/better_sqlite3\.node$/);
  });
});

describe('chooseSqlite', () => {
  const bundled = { Database: (() => undefined) as unknown as typeof BetterSqlite3, version: '12.11.1' };

  it('takes the bundled JS only for the version it was bundled from, with the addon handed over by path', () => {
    expect(chooseSqlite(bundled, () => '12.11.1', '/x/build/Release/better_sqlite3.node')).toBe(bundled.Database);
    expect(chooseSqlite(bundled, () => '12.11.2', '/x/build/Release/better_sqlite3.node')).toBeNull();
    expect(chooseSqlite(bundled, () => null, '/x/build/Release/better_sqlite3.node')).toBeNull();
    // Without the addon's path the bundled JS would look it up from the bundle's directory: the package decides.
    expect(chooseSqlite(bundled, () => '12.11.1', undefined)).toBeNull();
    expect(chooseSqlite(null, () => '12.11.1', '/x/build/Release/better_sqlite3.node')).toBeNull();
  });

  it('is the installed package under the tsc output (nothing was bundled there)', () => {
    expect(sqliteModule().bundled).toBe(false);
  });
});
