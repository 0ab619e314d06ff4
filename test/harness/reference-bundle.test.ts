// The one-module bundle of the reference adapter is used only while it is at least as new as what it was built from.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { currentBundle } from '../../harness/reference-bundle.js';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

function layout(): { adapter: string; bundle: string; touch: (file: string, seconds: number) => void } {
  root = mkdtempSync(join(tmpdir(), 'ejc-bundle-'));
  mkdirSync(join(root, 'reference-impl'));
  mkdirSync(join(root, 'harness'));
  const touch = (file: string, seconds: number): void => {
    writeFileSync(join(root, file), '');
    utimesSync(join(root, file), seconds, seconds);
  };
  for (const file of ['reference-impl/adapter.js', 'reference-impl/prepare.js', 'harness/journal-interface.js', 'harness/canonical-json.js']) touch(file, 1000);
  return { adapter: join(root, 'reference-impl', 'adapter.js'), bundle: join(root, 'reference-impl', 'adapter.bundle.js'), touch };
}

describe('currentBundle', () => {
  it('is the bundle when it is newer than every compiled file it was built from', () => {
    const { adapter, bundle, touch } = layout();
    expect(currentBundle(adapter)).toBeNull();
    touch('reference-impl/adapter.bundle.js', 2000);
    expect(currentBundle(adapter)).toBe(bundle);
  });

  it('is null once any of them was compiled again after the bundle (a bare tsc)', () => {
    const { adapter, touch } = layout();
    touch('reference-impl/adapter.bundle.js', 2000);
    touch('reference-impl/prepare.js', 3000);
    expect(currentBundle(adapter)).toBeNull();
    touch('reference-impl/adapter.bundle.js', 4000);
    touch('harness/canonical-json.js', 5000);
    expect(currentBundle(adapter)).toBeNull();
  });
});
