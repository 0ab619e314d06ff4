// The published package, installed by name into a separate consumer: its vitest entry, its public API, its privacy.
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPackedConsumer, REPO, type PackedConsumer } from './packed-consumer.js';

const CONSUMER_TEST = `import { conformanceSuite } from 'effect-journal-conformance/vitest';

conformanceSuite({ scenarios: ['cp03.*', 'cp04.after-settle'] });

conformanceSuite({
  impl: './my-adapter.mjs',
  name: 'consumer adapter',
  scenarios: ['cp04.after-settle', 'cp10.session.disclose-once'],
});
`;

// Run with node in the consumer, so resolution is the consumer's, not this repo's.
const PROBE = `
const api = await import('effect-journal-conformance');
const internal = await import('effect-journal-conformance/dist/shared/errors.js').then(() => 'importable', (e) => e.code);
console.log(JSON.stringify({ exports: Object.keys(api).sort(), internal, types: typeof api.runConformance + typeof api.verifyReport + typeof api.createReferenceJournal }));
`;

interface VitestJson {
  success: boolean;
  testResults: Array<{ assertionResults: Array<{ fullName: string; status: string }> }>;
}

let consumer: PackedConsumer;
beforeAll(async () => {
  consumer = await createPackedConsumer();
}, 120_000);
afterAll(async () => {
  await consumer?.cleanup();
});

describe('effect-journal-conformance installed from its npm pack tarball', () => {
  it('runs conformanceSuite from a separate package against the bundled reference and a consumer-local adapter', async () => {
    await copyFile(join(REPO, 'examples', 'minimal-adapter', 'adapter.mjs'), join(consumer.path, 'my-adapter.mjs'));
    await mkdir(join(consumer.path, 'test'), { recursive: true });
    await writeFile(join(consumer.path, 'test', 'conformance.test.js'), CONSUMER_TEST);
    const out = join(consumer.path, 'vitest.json');
    const run = await execa('npx', ['vitest', 'run', '--reporter=json', `--outputFile=${out}`], { cwd: consumer.path, env: consumer.env, extendEnv: false, reject: false });
    expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
    const json = JSON.parse(await readFile(out, 'utf8')) as VitestJson;
    const tests = json.testResults.flatMap((f) => f.assertionResults).map((a) => [a.fullName, a.status]);
    expect(json.success).toBe(true);
    expect(tests.sort()).toEqual([
      ['consumer adapter cp04.after-settle', 'passed'],
      ['consumer adapter cp10.session.disclose-once', 'skipped'],
      ['effect journal conformance (ejc:reference) cp03.after-dispatch.tier3', 'passed'],
      ['effect journal conformance (ejc:reference) cp04.after-settle', 'passed'],
    ]);
  });

  it('exports the public API from the main entry and hides dist/ internals', async () => {
    const probe = await execa('node', ['--input-type=module', '-e', PROBE], { cwd: consumer.path, env: consumer.env, extendEnv: false });
    const result = JSON.parse(probe.stdout) as { exports: string[]; internal: string; types: string };
    expect(result.exports).toEqual(expect.arrayContaining(['runConformance', 'verifyReport', 'createReferenceJournal', 'JournalError']));
    expect(result.types).toBe('functionfunctionfunction');
    expect(result.internal).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });

  it('installs the ejc bin, which runs the bundled reference journal', async () => {
    const run = await execa('npx', ['ejc', 'run', '--scenario', 'cp04.after-settle'], { cwd: consumer.path, env: consumer.env, extendEnv: false, reject: false });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^verdict: conformant {2}\(ejc-reference-journal /);
  });
});
