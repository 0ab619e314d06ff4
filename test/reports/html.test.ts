import { readFileSync } from 'node:fs';
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
    effectsBefore: [row('committed', true)],
    effectsAfter: [row('prepared', false)],
    events: [
      ev(0, 'start', { detail: 'pid 1' }),
      ev(1, 'request', { seq: 1, name: 'prepare' }),
      ev(2, 'crashpoint', { seq: 2, name: 'prepare.before-commit' }),
      ev(3, 'kill', { seq: 2, name: 'point:prepare.before-commit', detail: 'SIGKILL' }),
      ev(4, 'exit', { name: 'killed by the harness', detail: 'SIGKILL' }),
      ev(5, 'restart', { driver: 'primary#2' }),
      ev(5.5, 'request', { driver: 'primary#2', seq: 1, name: 'gate' }),
      ev(5.6, 'result', { driver: 'primary#2', seq: 1, name: 'gate', detail: 'refuse' }),
      ev(6, 'target', { driver: null, name: 'payments', detail: 'tier 3 write (generation 1)' }),
      ev(7, 'elided', { driver: null, detail: '12 events' }),
    ],
  });
  // The passing scenario has a timeline too: the page keeps it out (the report's JSON holds it).
  const passing = trial('t1', { events: [ev(0, 'start', { detail: 'pid 9' }), ev(1, 'kill', { name: 'point:passing-only-kill', detail: 'SIGKILL' })] });
  return buildReport([scenario('kxm.recovery.x', [passing]), scenario('cp04.after-settle', [failed], { reason: 'assertion failed: writes' }), scenario('cp10.session', [])]);
}

function row(state: 'committed' | 'prepared', resultRetained: boolean) {
  const base = trial('x').effectsAfter![0]!;
  return { ...base, state, resultRetained };
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
    // Next to expected and actual: the journal's own answer after the restart, and the row before and after the kill.
    expect(html).toContain('<strong>The journal answered after the restart:</strong> <code class="">gate → refuse</code>');
    expect(html).toContain('<td class="changed">committed → <b>prepared</b></td>');
    expect(html).toContain('<td class="changed">retained → <b>not retained</b></td>');
    expect(html).toContain(`<td>v5:aaaaaaaaaaaa…</td>`);
    expect(html).toContain(`Contract: ${report.scenarios.find((s) => s.id === 'cp04.after-settle')!.spec}`);
    expect(html).toContain('ejc run --scenario cp04.after-settle --seed 1');
    // The failed scenario is open, the passed one closed; each carries its verdict and family for the filters.
    expect(html).toMatch(/<details class="scenario" id="s-cp04_after-settle" data-verdict="failed" data-family="cp04" open>/);
    expect(html).toMatch(/<li class="scenario" id="s-kxm_recovery_x" data-verdict="passed" data-family="kxm">/);
    expect(html).toContain('body:has(#fv-failed:not(:checked)) .scenario[data-verdict="failed"]');
    expect(html).toContain('body:has(#ff-kxm:not(:checked)) .scenario[data-family="kxm"]');
    expect(html).toContain('<g class="ev kill"><title>3.0 ms · primary#1 · seq 2 · kill · point:prepare.before-commit · SIGKILL</title>');
    expect(html).toContain('SIGKILL at prepare.before-commit');
    expect(html).toContain('<text class="lane-label" x="8" y="');
    expect(html).toMatch(/<line class="life killed"/);
    expect(html).toContain('… 12 events elided');
    expect(html).toContain('10 event(s) as a table');
  });

  it('leads with what failed: root causes, then the failed scenario, then passes folded to a line each, then the run and its parts', () => {
    const html = reportHtml(failingReport());
    const at = (needle: string): number => {
      const i = html.indexOf(needle);
      expect(i, needle).toBeGreaterThan(0);
      return i;
    };
    const order = [at('<section id="root-causes">'), at('<h2 id="failures">Failed: 1 scenario(s)</h2>'), at('id="s-cp04_after-settle"'), at('<details class="passes"><summary><h2>1 passed, 1 not applicable</h2>'), at('id="s-kxm_recovery_x"'), at('<section id="run">'), at('<section id="implementation">'), at('<footer>')];
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // The passing trial's timeline and assertions stay out of the page.
    expect(html).not.toContain('passing-only-kill');
    expect(html.match(/<svg /g)).toHaveLength(1);
    // Counts in words, never the report's camelCase keys.
    const counts = html.slice(at('<ul class="counts"'), html.indexOf('</ul>', at('<ul class="counts"')));
    expect(counts).toContain('<li class="muted">dispatch attempts <b>');
    expect(counts).toContain('<li>not applicable <b>1</b></li>');
    expect(counts).not.toMatch(/[a-z][A-Z]/);
    expect(html).toContain('<dt>protocol version</dt>');
  });

  it('renders what it does not know: newer report fields, a counterexample, a trial without events, a report that does not verify', () => {
    const raw = clone(failingReport()) as unknown as Record<string, unknown> & { implementation: Record<string, unknown>; scenarios: Array<{ trials: Array<Record<string, unknown>> }> };
    raw.implementation['fingerprint'] = { sha256: 'f'.repeat(64), files: ['adapter.js'] };
    raw['environment'] = { os: 'linux', strace: '6.1' };
    raw.scenarios[1]!.trials[0]!['counterexample'] = { steps: ['prepare e1', { kind: 'kill', describe: 'SIGKILL after settle' }], replay: 'npx ejc explore --replay abc' };
    raw.scenarios[1]!.trials[0]!['events'] = [];
    const html = reportHtml(raw, { problems: ['$.contentHash: does not match'] });
    expect(html).toContain('<dt>fingerprint</dt>');
    expect(html).toContain('f'.repeat(64));
    expect(html).toContain('<h2>Also in this report</h2>');
    expect(html).toContain('<dt>environment</dt>');
    expect(html).toContain('<h4>Counterexample, 2 step(s)</h4><ol class="steps"><li>prepare e1</li><li><code>kill</code> SIGKILL after settle</li></ol>');
    expect(html).toContain('npx ejc explore --replay abc');
    expect(html).toContain('No timeline: this report holds no events');
    expect(html).toContain('<strong>This report does not verify</strong>');
    expect(reportHtml({})).toContain('<h1>unknown: (unnamed implementation) </h1>');
  });

  it('renders an exploration counterexample from the explore section as numbered steps, the violating one marked, beside the trial timeline', () => {
    const raw = clone(failingReport()) as unknown as { sections: Record<string, unknown> };
    raw.sections['explore'] = {
      'cp04.after-settle': {
        counterexample: {
          replay: 'npx ejc explore --replay 7:0:1 --machine none',
          clause: 'gate.decision',
          contract: 'the resume gate decides from the rows alone',
          what: 'the gate refused a committed effect',
          expected: 'pass',
          observed: 'refuse',
          step: 9,
          omittedSteps: 0,
          steps: [{ step: 2, text: 'primary#1 prepare run "r" node "n" → proceed' }, { step: 5, text: 'SIGKILL primary#1 at after-settle' }, { step: 9, text: 'primary#2 gate run "r" node "n" → refuse' }],
        },
      },
    };
    const html = reportHtml(raw);
    expect(html).toContain('<p class="violation"><strong>Broken:</strong> <code>gate.decision</code> the resume gate decides from the rows alone</p><p><strong>At step 9:</strong> the gate refused a committed effect</p>');
    expect(html).toContain('<ol class="steps"><li value="2">primary#1 prepare run &quot;r&quot; node &quot;n&quot; → proceed</li><li value="5">SIGKILL primary#1 at after-settle</li><li value="9" class="violating">primary#2 gate run &quot;r&quot; node &quot;n&quot; → refuse <span class="no">← the clause breaks here</span></li></ol>');
    expect(html).toContain('<strong>Replay exactly this:</strong> <code>npx ejc explore --replay 7:0:1 --machine none</code>');
    // The same trial's timeline follows it, as for a fixed trial.
    expect(html.indexOf('<figure class="timeline"')).toBeGreaterThan(html.indexOf('class="violating"'));
  });

  it('stays small for the reference run: the seed-1 witness renders under 1 MB, passes as one line each', () => {
    const witness = JSON.parse(readFileSync(new URL('../../reports/witnesses/reference-journal.seed-1.json', import.meta.url), 'utf8')) as { scenarios: Array<{ verdict: string }> };
    const html = reportHtml(witness);
    expect(Buffer.byteLength(html)).toBeLessThan(1_000_000);
    expect(html.match(/<li class="scenario" /g)).toHaveLength(witness.scenarios.filter((s) => s.verdict === 'passed' || s.verdict === 'not_applicable').length);
    expect(html).not.toContain('<svg ');
  });
});
