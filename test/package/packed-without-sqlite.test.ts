// The tarball installed with --omit=optional: no better-sqlite3 compiled, and a --cmd journal still runs the harness.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBareConsumer, INSTALL_COMMANDS, installAsTheGuideSays, type PackedConsumer } from './packed-consumer.js';
import type { Report } from '../../reports/schema.js';

// The guide's install, leaving out optional dependencies: what a journal in another language needs.
const WITHOUT_OPTIONAL = INSTALL_COMMANDS.replace('npm install --save-dev ', 'npm install --save-dev --omit=optional ');
const PYTHON = 'python3 node_modules/effect-journal-conformance/examples/python-journal/journal.py';

let consumer: PackedConsumer;
beforeAll(async () => {
  consumer = await createBareConsumer();
  await installAsTheGuideSays(consumer, WITHOUT_OPTIONAL);
});
afterAll(async () => {
  await consumer?.cleanup();
});

describe('effect-journal-conformance installed without its optional better-sqlite3', () => {
  it('has no better-sqlite3, runs a --cmd journal through the secret scans, and lists the sqlite dimension as not tested', async () => {
    expect(WITHOUT_OPTIONAL).toContain('--omit=optional');
    expect(existsSync(join(consumer.path, 'node_modules', 'better-sqlite3'))).toBe(false);
    const run = await execa('npx', ['--no-install', 'ejc', 'run', '--cmd', PYTHON, '--scenario', 'cp04.after-settle', '--scenario', 'secrets.args-never-on-disk', '--out', 'out'], { cwd: consumer.path, env: consumer.env, extendEnv: false, reject: false });
    expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
    const report = JSON.parse(await readFile(join(consumer.path, 'out', 'report.json'), 'utf8')) as Report;
    expect(report.scenarios.map((s) => [s.id, s.verdict])).toEqual([['cp04.after-settle', 'passed'], ['secrets.args-never-on-disk', 'passed']]);
    expect(report.environment[0]).toMatchObject({ betterSqlite3: null, sqlite: null });
    expect(report.notTested?.map((e) => e.dimension)).toContain('sqlite');
    expect(run.stdout.indexOf('  sqlite: no better-sqlite3')).toBeLessThan(run.stdout.indexOf('verdict: '));
  });

  it('says the reference journal needs better-sqlite3 instead of failing inside a driver (exit 3)', async () => {
    const run = await execa('npx', ['--no-install', 'ejc', 'run', '--scenario', 'cp04.after-settle'], { cwd: consumer.path, env: consumer.env, extendEnv: false, reject: false });
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toContain('the bundled reference journal needs better-sqlite3, an optional dependency of ejc that is not installed here');
  });
});
