// The append-only log journal (examples/log-journal), a store with no SQLite: every applicable scenario passes, the
// SQLite-only ones are not applicable, and copies of its source with one real bug each are caught.
import { cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dir } from 'tmp-promise';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Report } from '../../reports/schema.js';
import { verifyReport } from '../../reports/verify.js';
import { ejc } from '../cli/ejc-process.js';
import { REPO } from '../package/packed-consumer.js';

const EXAMPLE = fileURLToPath(new URL('../../examples/log-journal/', import.meta.url));

// The scenarios whose needs a log store does not meet, each for its own reason.
const NOT_APPLICABLE: Record<string, RegExp> = {
  'cp11.session-sweep.outer-transaction': /^needs outerTransactionProbe$/,
  'secrets.blocked-reader-defers-then-completes': /^needs sqliteWal/,
  'cp09.tier1.after-dispatch.reconciling': /^needs tierMode:reconciling/,
};

// One real bug each, applied to a copy of the source: [file, the exact text, its broken replacement, a scenario that must fail].
const BROKEN_COPIES = {
  'last-prepare-wins': ['rows.mjs', 'if (holder !== undefined) return { ok: false, holder };', '', 'cp07.concurrent-prepare.interleaved'],
  'chunks-apply-early': ['rows.mjs', 'this.pendingSweeps.set(record.tx, [...(this.pendingSweeps.get(record.tx) ?? []), ...record.rows]);', 'this.pendingSweeps.set(record.tx, record.rows); this.#commitSweep({ tx: record.tx, sessionId: record.rows[0].sessionId });', 'cp11.session-sweep.kill-between-chunks'],
  'never-erases': ['record-log.mjs', 'for (const span of spans) writeSync', 'for (const span of []) writeSync', 'secrets.sweep-erases-result-bytes'],
} as const;

let tmp: { path: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  tmp = await dir({ unsafeCleanup: true });
});
afterEach(async () => {
  await tmp.cleanup();
});

async function run(impl: string, scenarios: readonly string[]): Promise<{ exitCode: number; stdout: string; stderr: string; report: Report }> {
  const out = join(tmp.path, 'out');
  const r = await ejc(['run', '--impl', impl, ...scenarios.flatMap((s) => ['--scenario', s]), '--out', out]);
  return { ...r, report: JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report };
}

describe('examples/log-journal (an append-only fsynced log, no database)', () => {
  it('passes every applicable scenario; the SQLite-only, probe and reconciling ones are not applicable', async () => {
    const r = await run(join(EXAMPLE, 'journal.mjs'), []);
    expect(r.exitCode, r.stdout).toBe(0);
    expect(verifyReport(r.report)).toEqual({ ok: true, problems: [] });
    const failing = r.report.scenarios.filter((s) => s.verdict !== 'passed' && s.verdict !== 'not_applicable').map((s) => `${s.id}: ${s.verdict} ${s.reason}`);
    expect(failing).toEqual([]);
    const byId = new Map(r.report.scenarios.map((s) => [s.id, s]));
    for (const [id, reason] of Object.entries(NOT_APPLICABLE)) expect(byId.get(id)?.reason ?? '', id).toMatch(reason);
    // It really ran: crash points, kills at every durable write, disclosure by address, byte scans of its log.
    for (const id of ['cp01.prepare-before-commit', 'cp07.concurrent-prepare.race', 'cp10.session.disclose-once', 'recovery.operator-resolution', 'digest.persisted-form', 'sweep.prepare.every-write', 'secrets.sweep-erases-result-bytes']) {
      expect(byId.get(id)?.verdict, id).toBe('passed');
    }
    expect(r.report.summary.passed).toBeGreaterThanOrEqual(50);
    expect(r.report.counts.kills).toBeGreaterThan(20);
    expect(r.report.counts.canaryHits).toBe(0);
  }, 300_000);

  it.each(Object.entries(BROKEN_COPIES))('catches a copy with the bug %s', async (_bug, [file, from, to, scenario]) => {
    // A third party's checkout: the copied source resolves effect-journal-conformance from its own node_modules.
    const copy = join(tmp.path, 'log-journal');
    await cp(EXAMPLE, copy, { recursive: true });
    await mkdir(join(tmp.path, 'node_modules'), { recursive: true });
    await symlink(REPO, join(tmp.path, 'node_modules', 'effect-journal-conformance'), 'dir');
    const source = await readFile(join(copy, file), 'utf8');
    expect(source, `${file} no longer holds the text this bug replaces`).toContain(from);
    await writeFile(join(copy, file), source.replace(from, to));
    const r = await run(join(copy, 'journal.mjs'), [scenario]);
    expect(r.exitCode, r.stdout).toBe(1);
    expect(r.report.scenarios.map((s) => [s.id, s.verdict])).toEqual([[scenario, 'failed']]);
  }, 60_000);
});
