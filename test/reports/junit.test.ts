import { describe, expect, it } from 'vitest';
import { escapeXml, toJUnit } from '../../reports/junit.js';
import { buildReport, scenario, trial } from './fixture.js';

describe('toJUnit', () => {
  it('groups by family with no dots of its own and carries the stderr tail in system-err, masked', () => {
    const failed = trial('t1', { assertions: [{ name: 'w', expected: 1, actual: 2, passed: false }], stderrTail: ['boom <here>', 'token EJC-CANARY-0.abc123'] });
    const xml = toJUnit(buildReport([scenario('kxm.recovery.never-started', [failed]), scenario('s8e.batch.clean', [trial('t1')])]));
    expect(xml).toContain('<testcase classname="kxm" name="kxm.recovery.never-started"');
    expect(xml).toContain('<testcase classname="s8e" name="s8e.batch.clean"');
    expect(xml).toMatch(/<system-err>\[t1\] boom &lt;here&gt;\n\[t1\] token \[masked canary:[0-9a-f]{12}\]<\/system-err>/);
    expect(xml).not.toContain('EJC-CANARY-');
  });

  it('renders one testcase per scenario with failure, error and skipped elements', () => {
    const failed = trial('t1', { assertions: [{ name: 'writes <= 1', expected: 1, actual: 2, passed: false }] });
    const stuck = trial('t1', { kills: [], counts: { ...trial('x').counts, kills: 0 }, inconclusiveReason: 'crash point prepare.before-commit never reached' });
    const report = buildReport([
      scenario('cp01.kill-before-commit', [stuck]),
      scenario('cp03.after-target', [failed], { reason: 'writes <= 1: expected 1, got 2' }),
      scenario('cp04.after-settle', [trial('t1')]),
      scenario('cp10.session-disclosure', []),
    ]);
    const xml = toJUnit(report);
    expect(xml).toMatch(/<testsuite name="ejc reference-sqlite 0.1.0" tests="4" failures="1" errors="1" skipped="1"/);
    expect(xml).toContain('<testcase classname="cp04" name="cp04.after-settle" time="0.030"/>');
    expect(xml).toContain('<failure message="writes &lt;= 1: expected 1, got 2" type="failed">contract: §12.03\ntrial t1: writes &lt;= 1\n  expected: 1\n  actual:   2\nreproduce: ejc run --scenario cp03.after-target --seed 1</failure>');
    expect(xml).toContain('<error message="crash point prepare.before-commit never reached" type="inconclusive">');
    expect(xml).toContain('<skipped message="not applicable: needs sessions"/>');
    expect(xml).toContain(`<property name="contentHash" value="${report.contentHash}"/>`);
  });

  it('escapes markup, quotes and characters XML cannot carry', () => {
    expect(escapeXml(`a<b>&"c"'d'`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;');
    expect(escapeXml('bell\u0007 nul\u0000 lone\uD800 ok\u{1F600}\ttab')).toBe('bell\uFFFD nul\uFFFD lone\uFFFD ok\u{1F600}\ttab');
    const failing = trial('t1', { assertions: [{ name: 'a', expected: 1, actual: 2, passed: false }] });
    const report = buildReport([scenario('cp01.x', [failing], { title: 'x', spec: '§12 "1" <kill> & more' })]);
    const xml = toJUnit(report);
    expect(xml).toContain('contract: §12 &quot;1&quot; &lt;kill&gt; &amp; more');
    expect(xml).not.toContain('<kill>');
  });
});
