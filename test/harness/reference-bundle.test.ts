// The one-module bundles (the reference adapter, the host driver) are used only while they are at least as new as what they were built from.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { currentBundle } from '../../harness/reference-bundle.js';
import { currentHostBundle, HOST_BUNDLE, HOST_BUNDLE_INPUTS } from '../../harness/driver/host-bundle.js';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

function layout(): { adapter: string; bundle: string; touch: (file: string, seconds: number) => void } {
  root = mkdtempSync(join(tmpdir(), 'ejc-bundle-'));
  mkdirSync(join(root, 'reference-impl'));
  mkdirSync(join(root, 'harness'));
  mkdirSync(join(root, 'shared'));
  mkdirSync(join(root, 'reference-impl', 'kxm'));
  const touch = (file: string, seconds: number): void => {
    writeFileSync(join(root, file), '');
    utimesSync(join(root, file), seconds, seconds);
  };
  for (const file of ['reference-impl/adapter.js', 'reference-impl/prepare.js', 'reference-impl/kxm/dispatch.js', 'harness/journal-interface.js', 'shared/canonical-json.js']) touch(file, 1000);
  return { adapter: join(root, 'reference-impl', 'adapter.js'), bundle: join(root, 'reference-impl', 'adapter.bundle.cjs'), touch };
}

describe('currentBundle', () => {
  it('is the bundle when it is newer than every compiled file it was built from', () => {
    const { adapter, bundle, touch } = layout();
    expect(currentBundle(adapter)).toBeNull();
    touch('reference-impl/adapter.bundle.cjs', 2000);
    expect(currentBundle(adapter)).toBe(bundle);
  });

  it('is null once any of them was compiled again after the bundle (a bare tsc)', () => {
    const { adapter, touch } = layout();
    touch('reference-impl/adapter.bundle.cjs', 2000);
    touch('reference-impl/prepare.js', 3000);
    expect(currentBundle(adapter)).toBeNull();
    touch('reference-impl/adapter.bundle.cjs', 4000);
    touch('shared/canonical-json.js', 5000);
    expect(currentBundle(adapter)).toBeNull();
    touch('reference-impl/adapter.bundle.cjs', 6000);
    expect(currentBundle(adapter)).not.toBeNull();
    touch('reference-impl/kxm/dispatch.js', 7000);
    expect(currentBundle(adapter)).toBeNull();
  });
});

describe('currentHostBundle', () => {
  function hostLayout(): { host: string; bundle: string; touch: (file: string, seconds: number) => void } {
    root = mkdtempSync(join(tmpdir(), 'ejc-host-bundle-'));
    mkdirSync(join(root, 'driver'));
    mkdirSync(join(root, 'secrets'));
    const touch = (file: string, seconds: number): void => {
      writeFileSync(join(root, file), file.endsWith('.json') ? JSON.stringify(['host.js', 'host-io.js', '../secrets/impl-secrets.js']) : '');
      utimesSync(join(root, file), seconds, seconds);
    };
    for (const file of ['driver/host.js', 'driver/host-io.js', 'secrets/impl-secrets.js']) touch(file, 1000);
    return { host: join(root, 'driver', 'host.js'), bundle: join(root, 'driver', HOST_BUNDLE), touch };
  }

  it('is the bundle while it is newer than every file its list of inputs names, else null', () => {
    const { host, bundle, touch } = hostLayout();
    expect(currentHostBundle(host)).toBeNull();
    touch(`driver/${HOST_BUNDLE}`, 2000);
    // No list of inputs: nothing says what the bundle holds, so it is not used.
    expect(currentHostBundle(host)).toBeNull();
    touch(`driver/${HOST_BUNDLE_INPUTS}`, 2000);
    expect(currentHostBundle(host)).toBe(bundle);
    touch('secrets/impl-secrets.js', 3000);
    expect(currentHostBundle(host)).toBeNull();
    touch(`driver/${HOST_BUNDLE}`, 4000);
    expect(currentHostBundle(host)).toBe(bundle);
    rmSync(join(root, 'driver', 'host-io.js'));
    expect(currentHostBundle(host)).toBeNull();
  });
});
