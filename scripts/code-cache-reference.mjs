// Part of `npm run build`, after the bundles: the V8 code cache of dist/reference-impl/adapter.bundle.cjs, which its
// drivers' host loads it with (harness/driver/code-cache.ts). V8 caches the functions compiled so far, so a short
// journal session runs first: open, prepare, settle, gate, list, sweep, close, in a temporary directory removed after.
// A cache that cannot be made is no failure of the build: drivers then compile the bundle as before.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';
import { Script } from 'node:vm';
import { CODE_CACHE_SUFFIX, codeCacheHeader, wrap } from '../dist/harness/driver/code-cache.js';

/** Writes `<bundle>.v8cache`; returns its size in bytes, or null (with a warning) when the session failed. */
export function writeCodeCache(bundle) {
  const target = `${bundle}${CODE_CACHE_SUFFIX}`;
  rmSync(target, { force: true });
  const dir = mkdtempSync(join(tmpdir(), 'ejc-code-cache-'));
  try {
    const script = new Script(wrap(readFileSync(bundle, 'utf8')), { filename: bundle });
    const module = { exports: {} };
    script.runInThisContext().call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
    session(module.exports.createJournal, dir);
    const header = `${JSON.stringify(codeCacheHeader(bundle))}\n`;
    const data = script.createCachedData();
    writeFileSync(target, Buffer.concat([Buffer.from(header), data]));
    return data.length;
  } catch (error) {
    process.stderr.write(`bundle-reference: no code cache for ${bundle} (${error instanceof Error ? error.message : String(error)}); drivers compile it as before\n`);
    rmSync(target, { force: true });
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function session(createJournal, dir) {
  const journal = createJournal({ crashpoint: () => undefined, options: {} });
  journal.open({ dir, armedCrashPoints: [] });
  const correlation = { kind: 'run', runId: 'run-cache', nodeId: 'node-a', attempt: 1 };
  const prepare = {
    correlation,
    slot: 0,
    toolId: 'http_request',
    tier: 3,
    args: { method: 'POST', url: 'https://payments.invalid/charge', amount: 42, apiToken: 'tok' },
    secretArgKeys: ['apiToken'],
    outputMappingConfig: { field: 'tail', bound: 48 },
    audit: { providerAttempt: 1, callId: 'call-1', ownerId: 'engine-primary#1', generation: 0 },
  };
  const prepared = journal.prepare(prepare);
  journal.settle({ effectId: prepared.effectId, state: 'committed', result: { modelValue: 'ok', truncated: false, summary: 'http_request: 2 chars', outputMappingResult: 'END' } });
  journal.gate({ scope: { kind: 'run', runId: correlation.runId, nodeId: correlation.nodeId }, attempt: 1 });
  journal.prepare(prepare);
  journal.listEffects({});
  journal.runTerminal({ runId: correlation.runId });
  journal.close();
}
