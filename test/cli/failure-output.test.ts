// One real failing run (a journal that acknowledges a settle before it is durable) read the ways people read it:
// the terminal summary, the kept transcript, GitHub annotations and step summary, JUnit against its XSD, the HTML page in Chromium.
import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { dir } from 'tmp-promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitCommand } from '../../shared/split-command.js';
import type { Report } from '../../reports/schema.js';
import { launchChromium } from './chromium.js';
import { ejc, type EjcResult } from './ejc-process.js';

const BROKEN = fileURLToPath(new URL('../broken/broken-journal.mjs', import.meta.url));
const XSD = fileURLToPath(new URL('../reports/junit.xsd', import.meta.url));
const FAILING = 'cp04.after-settle';
const PASSING = 'cp01.prepare-before-commit';

let tmp: { path: string; cleanup: () => Promise<void> };
let run: EjcResult;
let paths: { out: string; junit: string; html: string; summary: string };

beforeAll(async () => {
  tmp = await dir({ unsafeCleanup: true });
  paths = { out: join(tmp.path, 'out'), junit: join(tmp.path, 'junit.xml'), html: join(tmp.path, 'report.html'), summary: join(tmp.path, 'step-summary.md') };
  await writeFile(paths.summary, '# an earlier step\n');
  run = await ejc(
    ['run', '--impl', BROKEN, '--impl-option', 'defect=ack-settle-before-durable', '--scenario', FAILING, '--scenario', PASSING, '--timeout', '60000', '--keep-failed', '--out', paths.out, '--junit', paths.junit, '--html', paths.html],
    // TMPDIR: the kept trial directory lands inside this test's own directory and goes with it.
    { env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: paths.summary, TMPDIR: tmp.path } },
  );
});

afterAll(async () => {
  await tmp?.cleanup();
});

async function keptDir(): Promise<string> {
  // --keep-failed with --out keeps trial directories under <out>/kept, never in the shared temp directory; they are
  // named like any temporary directory (nothing in the name tells a journal the scenario).
  const kept = (await readdir(join(paths.out, 'kept'))).filter((n) => /^tmp-\d+-/.test(n));
  expect(kept).toHaveLength(1);
  return join(paths.out, 'kept', kept[0]!);
}

describe('a failing run, as the terminal shows it', () => {
  it('prints each failing assertion, the kept directory, the exact reproduce command and the real verify path', async () => {
    expect(run.exitCode, run.stderr).toBe(1);
    const kept = await keptDir();
    const out = run.stdout;
    expect(out).toMatch(/^verdict: nonconformant/);
    expect(out).not.toContain('\x1b[');
    expect(out).toContain(`  ${FAILING}  failed: assertion failed: gate decision`);
    expect(out).toContain('    ✗ gate decision\n        expected: "pass"\n        actual:   "refuse"\n');
    expect(out).toContain(`    kept:      ${kept}\n`);
    expect(out).toContain(`    reproduce: npx ejc run --impl ${BROKEN} --impl-option defect=ack-settle-before-durable --scenario ${FAILING} --seed 1 --timeout 60000 --keep-failed\n`);
    expect(out).toContain(`verify: npx ejc verify ${join(paths.out, 'report.json')}\n`);
    expect(out).not.toContain(`  ${PASSING}  `);
  });

  it('keeps the wire transcript of the failed trial: both directions with seq and time, the kill and the restart, masked', async () => {
    const text = await readFile(join(await keptDir(), 'transcript.jsonl'), 'utf8');
    expect(text).not.toContain('EJC-CANARY-');
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const wire = lines.filter((l) => l['kind'] === 'wire');
    expect(wire.some((l) => l['direction'] === 'send') && wire.some((l) => l['direction'] === 'recv')).toBe(true);
    for (const l of wire) expect(typeof l['t'] === 'number' && typeof l['seq'] === 'number').toBe(true);
    const prepare = wire.find((l) => String(l['line']).includes('"op":"prepare"'))!;
    expect(JSON.parse(prepare['line'] as string)).toMatchObject({ params: { args: { apiToken: '[masked]' }, secretArgKeys: ['apiToken'] } });
    expect(lines.find((l) => l['kind'] === 'kill')).toMatchObject({ driver: 'primary#1', point: 'boundary:after-settle', signal: 'SIGKILL' });
    expect(lines.find((l) => l['kind'] === 'restart')).toMatchObject({ driver: 'primary#2' });
    // The report's timeline comes from the same record.
    const report = JSON.parse(await readFile(join(paths.out, 'report.json'), 'utf8')) as Report;
    const events = report.scenarios.find((s) => s.id === FAILING)!.trials[0]!.events!;
    expect(events.filter((e) => e.kind === 'request').length).toBe(wire.filter((l) => l['direction'] === 'send' && String(l['line']).includes('"type":"request"')).length);
    expect(events.find((e) => e.kind === 'kill')).toMatchObject({ driver: 'primary#1', name: 'boundary:after-settle', detail: 'SIGKILL' });
  });

  it('reproduces the failure with its reproduce command', async () => {
    const report = JSON.parse(await readFile(join(paths.out, 'report.json'), 'utf8')) as Report;
    const failing = report.scenarios.find((s) => s.id === FAILING)!;
    const args = splitCommand(failing.reproduce).slice(2);
    const again = await ejc([...args, '--json'], { env: { TMPDIR: tmp.path } });
    const rerun = JSON.parse(again.stdout) as Report;
    expect(rerun.scenarios.map((s) => [s.id, s.verdict])).toEqual([[FAILING, 'failed']]);
    expect(rerun.scenarios[0]!.trials[0]!.assertions).toEqual(failing.trials[0]!.assertions);
  });
});

describe('a failing run, as CI shows it', () => {
  it('annotates the failed scenario for GitHub Actions, one escaped workflow command per line', () => {
    const annotations = run.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations).toHaveLength(1);
    const [line] = annotations;
    expect(line).toMatch(new RegExp(`^::error title=ejc failed%3A ${FAILING.replace('.', '\\.')}::${FAILING} failed: assertion failed: gate decision%0A✗ gate decision: expected "pass", actual "refuse"%0A`));
    expect(line).toContain(`%0Areproduce: npx ejc run --impl ${BROKEN} `);
    expect(line).not.toMatch(/[\r]/);
  });

  it('appends a markdown step summary: verdict, counts, the failure with its reproduce command', async () => {
    const md = await readFile(paths.summary, 'utf8');
    expect(md.startsWith('# an earlier step\n')).toBe(true);
    expect(md).toContain('## ❌ ejc conformance: nonconformant');
    expect(md).toContain('| 1 | 1 | 0 | 0 | 0 | 0 |');
    expect(md).toContain(`<details><summary>cp04.after-settle — failed: assertion failed: gate decision</summary>`);
    expect(md).toContain('| gate decision | <code>&#34;pass&#34;</code> | <code>&#34;refuse&#34;</code> |');
    expect(md).toContain(`\`\`\`sh\nnpx ejc run --impl ${BROKEN} --impl-option defect=ack-settle-before-durable --scenario ${FAILING} --seed 1 --timeout 60000 --keep-failed\n\`\`\``);
  });

  it('writes JUnit that validates against the JUnit XSD, grouped by family, with the stderr tail', async () => {
    const lint = await execa('xmllint', ['--noout', '--schema', XSD, paths.junit], { reject: false });
    // A missing xmllint must say so, not "expected undefined to be 0".
    expect(lint.exitCode, lint.exitCode === undefined ? `xmllint did not start (${lint.message}): install libxml2-utils (npm test's setup step, scripts/setup-machine.sh, does)` : lint.stderr).toBe(0);
    const xml = await readFile(paths.junit, 'utf8');
    const classnames = [...xml.matchAll(/classname="([^"]*)"/g)].map((m) => m[1]);
    expect(classnames.sort()).toEqual(['cp01', 'cp04']);
    // The schema bites: a count that is not a number is refused.
    const broken = join(tmp.path, 'broken-junit.xml');
    await writeFile(broken, xml.replace(/ tests="2"/, ' tests="two"'));
    const bad = await execa('xmllint', ['--noout', '--schema', XSD, broken], { reject: false });
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stderr).toContain("attribute 'tests'");
  });
});

describe('a failing run, as the HTML page shows it in Chromium', () => {
  it('loads with no console errors and no network request, shows the failed trial’s timeline, and filters by verdict and family', async () => {
    const browser = await launchChromium(tmp.path);
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      const requests: string[] = [];
      browser.on('request', (r) => requests.push(r.url()));
      const url = pathToFileURL(paths.html).href;
      await page.goto(url, { waitUntil: 'load' });

      const failed = page.locator(`details.scenario[data-verdict="failed"][data-family="cp04"]`);
      const passed = page.locator(`.scenario[data-verdict="passed"][data-family="cp01"]`);
      const timeline = failed.locator('.timeline svg').first();
      expect(await timeline.isVisible()).toBe(true);
      expect((await timeline.boundingBox())!.width).toBeGreaterThan(300);
      expect(await failed.locator('.ev.kill').count()).toBe(1);
      expect(await failed.locator('.ev.restart').count()).toBe(1);
      // The restart's driver is started ahead of the kill, so its lifetime may overlap #1's and take a lane of its own.
      const lanes = await failed.locator('.lane-label').allTextContents();
      expect(lanes.at(-1)).toBe('targets');
      expect([...new Set(lanes.slice(0, -1))]).toEqual(['primary']);
      expect(lanes.length).toBeLessThanOrEqual(3);
      expect((await failed.locator('.proc').allTextContents()).sort()).toEqual(['#1', '#2']);
      expect(await failed.locator('tr.bad').first().textContent()).toContain('gate decision');
      await failed.locator('.timeline').first().scrollIntoViewIfNeeded();
      const shot = join(tmp.path, 'report.png');
      await page.screenshot({ path: shot });
      const png = await readFile(shot);
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(png.length).toBeGreaterThan(20_000);
      if (process.env['EJC_SCREENSHOT'] !== undefined) await copyFile(shot, process.env['EJC_SCREENSHOT']);

      expect(await page.locator('#shown').textContent()).toBe('2 of 2 scenario(s) shown');
      // Passes are folded to a line each; unfolded, the filters hide and show them like the failures.
      expect(await passed.isVisible()).toBe(false);
      await page.locator('details.passes > summary').click();
      await page.locator('.filters details.families > summary').click();
      await page.locator('#fv-failed').uncheck();
      expect([await failed.isVisible(), await passed.isVisible()]).toEqual([false, true]);
      expect(await page.locator('#shown').textContent()).toBe('1 of 2 scenario(s) shown');
      await page.locator('#fv-failed').check();
      await page.locator('#ff-cp01').uncheck();
      expect([await failed.isVisible(), await passed.isVisible()]).toEqual([true, false]);

      // Without JavaScript the page still reads and filters (CSS alone); only the counter and buttons need the script.
      const cdp = await browser.newCDPSession(page);
      await cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
      await page.reload({ waitUntil: 'load' });
      expect(await page.locator('.filters .tools').isVisible()).toBe(false);
      await page.locator('#fv-failed').check();
      expect(await failed.locator('.timeline svg').first().isVisible()).toBe(true);
      await page.locator('#fv-failed').uncheck();
      expect(await failed.isVisible()).toBe(false);

      expect(problems).toEqual([]);
      expect([...new Set(requests)]).toEqual([url]);
    } finally {
      await browser.close();
    }
  });
});
