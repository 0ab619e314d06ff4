import { describe, expect, it } from 'vitest';
import { reportHtml } from '../../reports/html.js';
import type { TrialEvent } from '../../reports/schema.js';
import { buildReport, clone, scenario, trial } from './fixture.js';

const ev = (t: number, kind: TrialEvent['kind'], fields: Partial<TrialEvent> = {}): TrialEvent => ({ t, kind, driver: 'primary#1', seq: null, name: null, detail: null, ...fields });

function failingReport() {
  const failed = trial('cp04.after-settle#1', {
    assertions: [
      { name: 'writes <script>alert(1)</script>', expected: 1, actual: 2, passed: false },
      { name: 'gate', expected: 'pass', actual: 'pass', passed: true },
    ],
    stderrTail: ['panic: </pre><b>bold</b>', 'token=EJC-CANARY-0.abc123def'],
    events: [
      ev(0, 'start', { detail: 'pid 1' }),
      ev(1, 'request', { seq: 1, name: 'prepare' }),
      ev(2, 'crashpoint', { seq: 2, name: 'prepare.before-commit' }),
      ev(3, 'kill', { seq: 2, name: 'point:prepare.before-commit', detail: 'SIGKILL' }),
      ev(4, 'exit', { name: 'killed by the harness', detail: 'SIGKILL' }),
      ev(5, 'restart', { driver: 'primary#2' }),
      ev(6, 'target', { driver: null, name: 'payments', detail: 'tier 3 write (generation 1)' }),
      ev(7, 'elided', { driver: null, detail: '12 events' }),
    ],
  });
  return buildReport([scenario('cp04.after-settle', [failed], { reason: 'assertion failed: writes' }), scenario('kxm.recovery.x', [trial('t1')]), scenario('cp10.session', [])]);
}

describe('the HTML report', () => {
  it('is one self-contained page: its own style and script only, nothing to fetch', () => {
    const html = reportHtml(failingReport());
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-`);
    // No URL of any kind: no link, image, font, script or namespace to resolve.
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<(link|img|iframe|object|embed)\b/);
    expect(html).not.toMatch(/\s(src|href)=/);
    expect(html.match(/<script>/g)).toHaveLength(1);
  });

  it('shows the verdict, the failing assertion with expected and actual, the clause, the reproduce command and the timeline', () => {
    const report = failingReport();
    const html = reportHtml(report);
    expect(html).toContain('<header class="verdict nonconformant"><h1>nonconformant: reference-sqlite 0.1.0</h1>');
    expect(html).toContain('writes &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toMatch(/panic: &lt;\/pre&gt;&lt;b&gt;bold&lt;\/b&gt;\ntoken=\[masked canary:[0-9a-f]{12}\]/);
    expect(html).not.toContain('EJC-CANARY-');
    expect(html).toMatch(/<tr class="bad"><td><span class="no">✗ failed<\/span><\/td><td>writes [^<]*<\/td><td><code>1<\/code><\/td><td><code>2<\/code><\/td><\/tr>/);
    expect(html).toContain(`<strong>Contract:</strong> ${report.scenarios[0]!.spec}`);
    expect(html).toContain('ejc run --scenario cp04.after-settle --seed 1');
    // The failed scenario is open, the passed one closed; each carries its verdict and family for the filters.
    expect(html).toMatch(/<details class="scenario" id="s-cp04_after-settle" data-verdict="failed" data-family="cp04" open>/);
    expect(html).toMatch(/<details class="scenario" id="s-kxm_recovery_x" data-verdict="passed" data-family="kxm">/);
    expect(html).toContain('body:has(#fv-failed:not(:checked)) .scenario[data-verdict="failed"]');
    expect(html).toContain('body:has(#ff-kxm:not(:checked)) .scenario[data-family="kxm"]');
    expect(html).toContain('<g class="ev kill"><title>3.0 ms · primary#1 · seq 2 · kill · point:prepare.before-commit · SIGKILL</title>');
    expect(html).toContain('SIGKILL at prepare.before-commit');
    expect(html).toContain('<text class="lane-label" x="8" y="');
    expect(html).toMatch(/<line class="life killed"/);
    expect(html).toContain('… 12 events elided');
    expect(html).toContain('8 event(s) as a table');
  });

  it('renders what it does not know: newer report fields, a counterexample, a trial without events, a report that does not verify', () => {
    const raw = clone(failingReport()) as unknown as Record<string, unknown> & { implementation: Record<string, unknown>; scenarios: Array<{ trials: Array<Record<string, unknown>> }> };
    raw.implementation['fingerprint'] = { sha256: 'f'.repeat(64), files: ['adapter.js'] };
    raw['environment'] = { os: 'linux', strace: '6.1' };
    raw.scenarios[1]!.trials[0]!['counterexample'] = { steps: ['prepare e1', { kind: 'kill', describe: 'SIGKILL after settle' }], replay: 'npx ejc explore --replay abc' };
    const html = reportHtml(raw, { problems: ['$.contentHash: does not match'] });
    expect(html).toContain('<dt>fingerprint</dt>');
    expect(html).toContain('f'.repeat(64));
    expect(html).toContain('<h2>Also in this report</h2>');
    expect(html).toContain('<dt>environment</dt>');
    expect(html).toContain('<h4>Shrunk counterexample, 2 step(s)</h4><ol class="steps"><li>prepare e1</li><li><code>kill</code> SIGKILL after settle</li></ol>');
    expect(html).toContain('npx ejc explore --replay abc');
    expect(html).toContain('No timeline: this report holds no events');
    expect(html).toContain('<strong>This report does not verify</strong>');
    expect(reportHtml({})).toContain('<h1>unknown: (unnamed implementation) </h1>');
  });
});
