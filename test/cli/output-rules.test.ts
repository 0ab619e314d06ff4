// The output rules in-process: colour, the terminal summary, table fitting, explain matching, suggestions, --exclude, GitHub escaping.
import { describe, expect, it } from 'vitest';
import { listTable, matchScenarios, table, terminalWidth } from '../../bin/cmd-catalog.js';
import { canRedraw, colourEnabled, createStyle } from '../../bin/colour.js';
import { summaryText } from '../../bin/progress.js';
import { publishRunOutputs } from '../../bin/run-outputs.js';
import { PassThrough } from 'node:stream';
import { closestIds, selectScenarios } from '../../harness/select-scenarios.js';
import { reproduceCommand } from '../../runner/run-conformance.js';
import { isHarnessSide } from '../../reports/family.js';
import { annotationLines, escapeData, escapeProperty, stepSummary, workflowCommand } from '../../reports/github-actions.js';
import { missingNeed } from '../../harness/scenario.js';
import { listScenarios } from '../../scenarios/catalog.js';
import { buildReport, scenario, trial } from '../reports/fixture.js';
import { compactJson, cutAtWord } from '../../reports/failure-text.js';
import { ejc } from './ejc-process.js';

const tty = { isTTY: true };
const pipe = { isTTY: false };

function failingReport() {
  const failed = trial('t1', { assertions: [{ name: 'writes', expected: 1, actual: 2, passed: false }, { name: 'gate', expected: 'pass', actual: 'pass', passed: true }] });
  return buildReport([
    scenario('cp03.after-dispatch', [failed], { reason: 'assertion failed: writes' }),
    scenario('cp04.after-settle', [trial('t1')]),
    scenario('sweep.prepare.every-write', [], { reason: 'needs strace on the harness machine (with ptrace permitted)' }),
    scenario('cp10.session.a', [], { reason: 'needs sessions' }),
    scenario('cp10.session.b', [], { reason: 'needs sessions' }),
  ]);
}

describe('colour', () => {
  it('is on for a terminal, off for a pipe, NO_COLOR and TERM=dumb; FORCE_COLOR decides when set', () => {
    expect(colourEnabled(tty, {})).toBe(true);
    expect(colourEnabled(pipe, {})).toBe(false);
    expect(colourEnabled(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colourEnabled(tty, { NO_COLOR: '' })).toBe(true);
    expect(colourEnabled(tty, { TERM: 'dumb' })).toBe(false);
    expect(colourEnabled(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(colourEnabled(tty, { FORCE_COLOR: '0' })).toBe(false);
    expect(colourEnabled(tty, { FORCE_COLOR: 'false', NO_COLOR: '' })).toBe(false);
    expect(colourEnabled(pipe, { FORCE_COLOR: '', NO_COLOR: '1' })).toBe(true);
    // The updating progress line moves the cursor: never on TERM=dumb, never into a pipe.
    expect([canRedraw(tty, {}), canRedraw(tty, { TERM: 'dumb' }), canRedraw(pipe, {})]).toEqual([true, false, false]);
  });

  it('colours the summary only when enabled', () => {
    const report = failingReport();
    expect(summaryText(report, null, { style: createStyle(true) })).toContain('\x1b[31m');
    expect(summaryText(report, null, { style: createStyle(false) })).not.toContain('\x1b');
  });
});

describe('the terminal summary', () => {
  it('shows each failed assertion, the kept directory, and not-applicable reasons by family with harness-side ones warned', () => {
    const text = summaryText(failingReport(), 'out/report.json', { kept: new Map([['cp03.after-dispatch', ['/tmp/ejc-cp03-x']]]) });
    expect(text).toContain('  cp03.after-dispatch  failed: assertion failed: writes  (§12.03)\n    ✗ writes\n        expected: 1\n        actual:   2\n    kept:      /tmp/ejc-cp03-x\n    reproduce: ejc run --scenario cp03.after-dispatch --seed 1\n');
    expect(text).not.toContain('✗ gate');
    expect(text).toContain('not applicable:\n  sweep    1 scenario(s): needs strace on the harness machine (with ptrace permitted)  [harness-side]\n  cp10     2 scenario(s): needs sessions\n');
    expect(text).toContain('warning: 1 sweep scenario(s) did not run');
    expect(text).toContain('report: out/report.json');
  });

  it('recognises the harness-side reasons harness/scenario.ts gives, and only those', () => {
    const caps = { crashPoints: [], faults: [], tierMode: 'conservative' as const, sessions: false, seeding: true, outerTransactionProbe: true };
    const strace = missingNeed(['harness:strace'], caps);
    // On a machine with strace the need is met; its reason is the one the summary must recognise either way.
    if (strace !== null) expect(isHarnessSide(`needs ${strace}`)).toBe(true);
    expect(isHarnessSide('needs strace on the harness machine (with ptrace permitted)')).toBe(true);
    expect(isHarnessSide(`needs ${missingNeed(['sessions'], caps)!}`)).toBe(false);
  });

  it('reproduces with every flag that changes the outcome', () => {
    const launch = { kind: 'module' as const, module: './a.js', options: { defect: 'x y' } };
    expect(reproduceCommand({ launch, seed: 7, timeoutMs: 5000, expectFailures: new Set(['cp01.a']), expectFailuresFile: 'known.txt' }, 'cp01.a')).toBe(
      "npx ejc run --impl ./a.js --impl-option 'defect=x y' --scenario cp01.a --seed 7 --timeout 5000 --expect-failures known.txt --keep-failed",
    );
    // The default timeout and an expect-failures file that does not list the scenario change nothing.
    expect(reproduceCommand({ launch, seed: 7, timeoutMs: 30_000, expectFailures: new Set(['cp09.b']), expectFailuresFile: 'known.txt' }, 'cp01.a')).toBe(
      "npx ejc run --impl ./a.js --impl-option 'defect=x y' --scenario cp01.a --seed 7 --keep-failed",
    );
  });
});

describe('the catalog commands', () => {
  it('cuts the spec, then tags, then titles (at a word) so a table fits the width; drops columns before a title gets short', () => {
    const rows = [['ID', 'SPEC', 'TAGS', 'TITLE'], ['cp04.after-settle.public-args-changed', 'effect-journal §12.4', 'crash-matrix,run,replay', 'Kill after the settle, then change the public args: refused, never replayed']];
    const fitted = table(rows, 120).trimEnd().split('\n');
    expect(fitted.every((l) => l.length <= 119)).toBe(true);
    expect(fitted[1]).toBe('cp04.after-settle.public-args-changed  effect-journa…  crash…  Kill after the settle, then change the public args:…');
    expect(table(rows, 50).split('\n').every((l) => l.length <= 49)).toBe(true);
    expect(table(rows)).toContain('refused, never replayed\n');
    // 100 columns: without SPEC the title keeps 40+ characters; 80: without TAGS too.
    expect(listTable(rows, 100).split('\n')[0]).toMatch(/^ID +TAGS +TITLE$/);
    expect(listTable(rows, 80).split('\n')[1]).toBe('cp04.after-settle.public-args-changed  Kill after the settle, then change the…');
    expect(listTable(rows, 200).split('\n')[0]).toMatch(/^ID +SPEC +TAGS +TITLE$/);
    expect(terminalWidth({ isTTY: true, columns: 100 }, { COLUMNS: '60' })).toBe(100);
    expect(terminalWidth({ isTTY: false }, { COLUMNS: '60' })).toBe(60);
    // Not a terminal and no COLUMNS: 100, never a 497-character line.
    expect(terminalWidth({ isTTY: false }, { COLUMNS: 'wide' })).toBe(100);
    expect(terminalWidth({ isTTY: false }, {})).toBe(100);
  });

  it('cuts a long value at a word boundary when one is near, else at the limit', () => {
    expect(cutAtWord('sessions: 1 scenario(s) of cp10 not tested because the journal does not claim it', 40)).toBe('sessions: 1 scenario(s) of cp10 not…');
    expect(cutAtWord('x'.repeat(50), 20)).toBe(`${'x'.repeat(19)}…`);
    expect(compactJson('short', 40)).toBe('"short"');
    expect(compactJson('a b c d e f g h i j k l m n o p q r s t u v w x y z', 30)).toBe('"a b c d e f g h i j k l m n…');
  });

  it('ejc list fits 100 columns when not a terminal, and every title keeps at least 30 characters', async () => {
    const r = await ejc(['list'], { env: { COLUMNS: '' } });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split('\n').slice(0, -1);
    expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(99);
    const titleAt = lines[0]!.indexOf('TITLE');
    expect(lines.slice(1).every((l) => [...l].length - titleAt >= 30 || !l.endsWith('…'))).toBe(true);
  });

  it('explains an exact id, else a glob, else a prefix', () => {
    const all = listScenarios();
    expect(matchScenarios(all, 'cp04.after-settle').map((s) => s.id)).toEqual(['cp04.after-settle']);
    expect(matchScenarios(all, 'cp04').map((s) => s.id)).toEqual(all.filter((s) => s.id.startsWith('cp04')).map((s) => s.id));
    expect(matchScenarios(all, '*.every-write').length).toBeGreaterThan(1);
    expect(matchScenarios(all, 'nope')).toEqual([]);
  });

  it('suggests only near typos, and --exclude drops ids before sharding', () => {
    const ids = listScenarios().map((s) => s.id);
    expect(closestIds(['seed', 'tag', 'timeout'], 'sed', 1)).toEqual(['seed']);
    expect(closestIds(['seed', 'tag', 'timeout'], 'xyz', 1)).toEqual([]);
    expect(closestIds(['run', 'list', 'report'], 'reprot', 1)).toEqual(['report']);
    expect(closestIds(ids, 'completely-different')).toEqual([]);
    const all = listScenarios();
    const without = selectScenarios(all, ['cp04.*'], [], null, ['cp04.after-settle.*']);
    expect(without.map((s) => s.id)).toEqual(all.filter((s) => s.id.startsWith('cp04.') && !s.id.startsWith('cp04.after-settle.')).map((s) => s.id));
    expect(() => selectScenarios(all, [], [], null, ['cp99.*'])).toThrow(/no scenario matches cp99\.\*/);
    const shards = [1, 2].map((i) => selectScenarios(all, [], [], { index: i, count: 2 }, ['kxm.*']).map((s) => s.id));
    expect(shards.flat().sort()).toEqual(all.filter((s) => !s.id.startsWith('kxm.')).map((s) => s.id).sort());
  });
});

describe('GitHub Actions output', () => {
  it('escapes workflow command data and properties', () => {
    expect(escapeData('100% done\r\nnext: a, b')).toBe('100%25 done%0D%0Anext: a, b');
    expect(escapeProperty('ejc failed: cp01.a, b%')).toBe('ejc failed%3A cp01.a%2C b%25');
    expect(workflowCommand('error', { title: 'a:b' }, 'x\ny')).toBe('::error title=a%3Ab::x%0Ay');
    expect(workflowCommand('notice', {}, 'n')).toBe('::notice::n');
  });

  it('annotates each not-passing scenario and each harness-side gap, one line each', () => {
    const lines = annotationLines(failingReport(), new Map([['cp03.after-dispatch', ['/k']]]));
    expect(lines).toEqual([
      '::error title=ejc failed%3A cp03.after-dispatch::cp03.after-dispatch failed: assertion failed: writes%0A✗ writes: expected 1, actual 2%0Akept: /k%0Areproduce: ejc run --scenario cp03.after-dispatch --seed 1',
      '::warning title=ejc%3A sweep not run::1 sweep scenario(s) did not run: needs strace on the harness machine (with ptrace permitted). The run proves nothing about them; --require makes this an error.',
    ]);
  });

  it('prints the annotations even when the step summary file cannot be written, and only inside GitHub Actions', async () => {
    const capture = async (env: NodeJS.ProcessEnv): Promise<string> => {
      const stream = new PassThrough();
      let text = '';
      stream.on('data', (c: Buffer) => (text += c.toString()));
      await publishRunOutputs(failingReport(), { reportPath: null, html: null, kept: new Map(), annotations: stream, env });
      return text;
    };
    const inside = await capture({ GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: '/nonexistent-dir/summary.md' });
    expect(inside).toMatch(/^::error title=ejc failed%3A cp03\.after-dispatch::/);
    expect(await capture({ GITHUB_STEP_SUMMARY: '/nonexistent-dir/summary.md' })).toBe('');
  });

  it('writes a summary whose values cannot break its markdown', () => {
    const failed = trial('t1', { assertions: [{ name: 'a | b', expected: '`x`', actual: '*y*', passed: false }] });
    const md = stepSummary(buildReport([scenario('cp01.x', [failed], { reproduce: 'npx ejc run --cmd "echo ```"' })]), null);
    expect(md).toContain('| a &#124; b | <code>&#34;&#96;x&#96;&#34;</code> | <code>&#34;&#42;y&#42;&#34;</code> |');
    expect(md).toContain('````sh\nnpx ejc run --cmd "echo ```"\n````');
    expect(md).toContain('Report not written');
  });
});
