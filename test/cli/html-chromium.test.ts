// The HTML page of a real failing run and of a real exploration counterexample, opened in Debian's headless Chromium and
// screenshotted: the first failure is within the first screen, nothing errs in the console, nothing is fetched.
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { dir } from 'tmp-promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../reports/schema.js';
import { launchChromium } from './chromium.js';
import { ejc } from './ejc-process.js';

const BROKEN = fileURLToPath(new URL('../broken/broken-journal.mjs', import.meta.url));
const VIEWPORT = { width: 1280, height: 900 };

let tmp: { path: string; cleanup: () => Promise<void> };
let browser: BrowserContext;
let pages: { run: string; explore: string; exploreReport: Report };

beforeAll(async () => {
  tmp = await dir({ unsafeCleanup: true });
  const env = { TMPDIR: tmp.path };
  const run = await ejc(['run', '--impl', BROKEN, '--impl-option', 'defect=ack-settle-before-durable', '--scenario', 'cp04.after-settle', '--scenario', 'cp01.prepare-before-commit', '--jobs', '1', '--out', join(tmp.path, 'run'), '--html', join(tmp.path, 'run.html')], { env });
  expect(run.exitCode, run.stderr).toBe(1);
  // One generated trial that a journal answering `proceed` to both of two racing prepares fails, its replay, no shrinking.
  const explore = await ejc(['explore', '--impl', BROKEN, '--impl-option', 'defect=double-prepare', '--trials', '1', '--max-shrinks', '0', '--out', join(tmp.path, 'explore')], { env });
  expect(explore.exitCode, explore.stdout + explore.stderr).toBe(1);
  const report = await ejc(['report', join(tmp.path, 'explore', 'report.json'), '--html', join(tmp.path, 'explore.html')], { env });
  expect(report.exitCode, report.stderr).toBe(0);
  pages = { run: join(tmp.path, 'run.html'), explore: join(tmp.path, 'explore.html'), exploreReport: JSON.parse(await readFile(join(tmp.path, 'explore', 'report.json'), 'utf8')) as Report };
  browser = await launchChromium(tmp.path);
});

afterAll(async () => {
  await browser?.close();
  await tmp?.cleanup();
});

/** Opens the page and returns it with what it logged and fetched. */
async function open(file: string): Promise<{ page: Page; problems: string[]; requests: string[]; url: string }> {
  const page = await browser.newPage();
  await page.setViewportSize(VIEWPORT);
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  const url = pathToFileURL(file).href;
  await page.goto(url, { waitUntil: 'load' });
  return { page, problems, requests, url };
}

/** The first screen as a PNG (kept under EJC_SCREENSHOT_DIR when set), checked to be a real picture of the page. */
async function screenshot(page: Page, name: string): Promise<void> {
  const shot = join(tmp.path, `${name}.png`);
  await page.screenshot({ path: shot });
  const png = await readFile(shot);
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  expect(png.readUInt32BE(16)).toBe(VIEWPORT.width);
  expect(png.readUInt32BE(20)).toBe(VIEWPORT.height);
  expect(png.length).toBeGreaterThan(20_000);
  const keep = process.env['EJC_SCREENSHOT_DIR'];
  if (keep !== undefined) await copyFile(shot, join(keep, `${name}.png`));
}

/** Where an element lies in the first screen, and what is drawn at its middle (not covered by something else). */
async function placement(page: Page, selector: string): Promise<{ top: number; bottom: number; drawn: boolean }> {
  const box = (await page.locator(selector).first().boundingBox())!;
  const drawn = await page.locator(selector).first().evaluate((el, p) => {
    // The test compiles without the DOM library: the page's document is reached through the element.
    const doc = (el as unknown as { ownerDocument: { elementFromPoint(x: number, y: number): typeof el | null } }).ownerDocument;
    const hit = doc.elementFromPoint(p.x, p.y);
    return hit !== null && (el === hit || el.contains(hit));
  }, { x: box.x + Math.min(box.width / 2, 40), y: box.y + Math.min(box.height / 2, 10) });
  return { top: box.y, bottom: box.y + box.height, drawn };
}

describe('the HTML page in Chromium', () => {
  it('of a failing run: the verdict on top, the root cause, and the first failed assertion within the first screen', async () => {
    const { page, problems, requests, url } = await open(pages.run);
    try {
      await screenshot(page, 'failing-run');
      expect((await placement(page, 'header.verdict.nonconformant')).top).toBe(0);
      expect((await placement(page, '#root-causes')).drawn).toBe(true);
      const first = await placement(page, 'details.scenario[data-verdict="failed"] tr.bad');
      expect(first.drawn).toBe(true);
      expect(first.bottom).toBeLessThanOrEqual(VIEWPORT.height);
      expect(await page.locator('details.scenario[data-verdict="failed"] tr.bad').first().textContent()).toContain('gate decision');
      // The journal's own answer and the rows across the kill are shown beside it; the passing scenario is one folded line.
      expect(await page.locator('tr.answer').first().textContent()).toContain('gate → refuse');
      expect(await page.locator('table.rows td.changed').count()).toBeGreaterThan(0);
      expect(await page.locator('li.scenario[data-verdict="passed"]').isVisible()).toBe(false);
      // Nothing is wider than the screen but the timeline's own scroll box.
      expect(await page.evaluate('document.scrollingElement.scrollWidth')).toBeLessThanOrEqual(VIEWPORT.width);
      expect(problems).toEqual([]);
      expect([...new Set(requests)]).toEqual([url]);
    } finally {
      await page.close();
    }
  });

  it('of an exploration: the counterexample as numbered steps, the violating one marked, above the same timeline a fixed trial has', async () => {
    const { page, problems, requests, url } = await open(pages.explore);
    try {
      await screenshot(page, 'explore-counterexample');
      const first = await placement(page, 'details.scenario[data-verdict="failed"] tr.bad');
      expect(first.drawn).toBe(true);
      expect(first.bottom).toBeLessThanOrEqual(VIEWPORT.height);
      const section = pages.exploreReport.sections['explore'] as Record<string, { counterexample?: { step: number; steps: Array<{ step: number }> } | null }>;
      const [id, entry] = Object.entries(section).find(([, v]) => v.counterexample)!;
      const cx = entry.counterexample!;
      const scenario = page.locator(`details.scenario[id="s-${id.replace(/[^A-Za-z0-9_-]/g, '_')}"]`);
      const steps = scenario.locator('.counterexample ol.steps > li');
      expect(await steps.count()).toBe(cx.steps.length);
      expect(await steps.evaluateAll((els) => els.map((e) => Number(e.getAttribute('value'))))).toEqual(cx.steps.map((s) => s.step));
      const violating = scenario.locator('li.violating');
      await violating.scrollIntoViewIfNeeded();
      await screenshot(page, 'explore-violating-step');
      expect(await violating.evaluate((e) => Number(e.getAttribute('value')))).toBe(cx.step);
      expect((await placement(page, `details.scenario[id="${await scenario.getAttribute('id')}"] li.violating`)).drawn).toBe(true);
      const timeline = scenario.locator('.timeline svg').first();
      expect(await timeline.isVisible()).toBe(true);
      expect(await scenario.locator('.timeline .ev.kill').count()).toBeGreaterThan(0);
      expect((await timeline.boundingBox())!.y).toBeGreaterThan((await violating.boundingBox())!.y);
      expect(problems).toEqual([]);
      expect([...new Set(requests)]).toEqual([url]);
    } finally {
      await page.close();
    }
  });
});
