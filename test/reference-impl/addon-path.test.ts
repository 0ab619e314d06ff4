// The reference journal hands better-sqlite3 its addon's path only where that is the file better-sqlite3's own lookup loads.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addonPath } from '../../reference-impl/sqlite.js';

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
