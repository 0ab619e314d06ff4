// The report page's inline CSS (filters work by CSS alone) and its small progressive-enhancement script.
import { token } from './html-parts.js';

/** The stylesheet, with one hiding rule per verdict and family filter checkbox. */
export function pageStyle(verdicts: readonly string[], families: readonly string[]): string {
  const hide = [
    ...verdicts.map((v) => `body:has(#fv-${token(v)}:not(:checked)) .scenario[data-verdict="${token(v)}"]`),
    ...families.map((f) => `body:has(#ff-${token(f)}:not(:checked)) .scenario[data-family="${token(f)}"]`),
  ];
  return `${BASE}${hide.length === 0 ? '' : `${hide.join(',\n')} { display: none; }\n`}`;
}

const BASE = `
:root { --pass: #1a7f37; --fail: #cf222e; --inc: #9a6700; --na: #6e7781; --xf: #8250df; --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg: #ffffff; --panel: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: var(--ink); background: var(--bg); }
main { max-width: 1200px; margin: 0 auto; padding: 0 20px 40px; }
header.verdict { padding: 18px 20px; color: #fff; }
header.verdict h1 { margin: 0; font-size: 22px; }
header.verdict p { margin: 4px 0 0; opacity: .95; }
header.conformant { background: var(--pass); } header.nonconformant { background: var(--fail); } header.inconclusive { background: var(--inc); }
.problems { border: 2px solid var(--fail); background: #ffebe9; padding: 8px 14px; margin: 14px 0; }
h2 { font-size: 17px; margin: 26px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 16px 0 6px; }
.counts { display: flex; flex-wrap: wrap; gap: 8px; margin: 12px 0; padding: 0; list-style: none; }
.counts li { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; }
.counts b { font-size: 16px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 6px 0; }
dt { color: var(--muted); } dd { margin: 0; min-width: 0; }
dd dl { margin: 0; }
code, pre { font: 12.5px/1.4 ui-monospace, "DejaVu Sans Mono", monospace; }
code { background: var(--panel); border-radius: 4px; padding: 0 4px; overflow-wrap: anywhere; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; overflow: auto; max-height: 360px; margin: 4px 0; }
.muted { color: var(--muted); }
.filters { position: sticky; top: 0; z-index: 2; background: var(--bg); border-bottom: 1px solid var(--line); padding: 8px 0; display: flex; flex-wrap: wrap; gap: 6px 18px; align-items: center; }
.filters fieldset { border: 0; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: center; }
.filters legend { float: left; font-weight: 600; margin-right: 6px; }
.filters label { white-space: nowrap; cursor: pointer; }
.filters .tools { margin-left: auto; }
.badge { display: inline-block; min-width: 7.5em; text-align: center; border-radius: 999px; padding: 1px 8px; color: #fff; font-size: 12px; font-weight: 600; }
.badge.passed, .badge.conformant { background: var(--pass); } .badge.failed, .badge.nonconformant, .badge.stale_expected_failure { background: var(--fail); }
.badge.inconclusive { background: var(--inc); } .badge.not_applicable { background: var(--na); } .badge.expected_failure { background: var(--xf); }
details.scenario { border: 1px solid var(--line); border-radius: 8px; margin: 8px 0; background: var(--bg); }
details.scenario > summary { padding: 8px 12px; cursor: pointer; display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
details.scenario > summary .id { font-weight: 600; font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
details.scenario > .body { padding: 0 14px 12px; border-top: 1px solid var(--line); }
details.scenario[data-verdict="failed"], details.scenario[data-verdict="stale_expected_failure"] { border-left: 5px solid var(--fail); }
details.scenario[data-verdict="inconclusive"] { border-left: 5px solid var(--inc); }
.trial { border-top: 1px dashed var(--line); margin-top: 10px; padding-top: 6px; }
table { border-collapse: collapse; width: 100%; margin: 6px 0; }
th, td { border: 1px solid var(--line); padding: 3px 6px; text-align: left; vertical-align: top; }
th { background: var(--panel); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.bad td { background: #ffebe9; }
table.assertions { table-layout: fixed; }
table.assertions th:nth-child(1) { width: 76px; } table.assertions th:nth-child(2) { width: 24%; }
table.assertions td:nth-child(1) { white-space: nowrap; }
tr.bad td:first-child { border-left: 3px solid var(--fail); }
.ok { color: var(--pass); font-weight: 600; } .no { color: var(--fail); font-weight: 600; }
.timeline { margin: 8px 0; }
.timeline .scroll { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
.timeline svg { display: block; font: 10px ui-monospace, "DejaVu Sans Mono", monospace; }
.timeline .lane0 { fill: #f6f8fa; } .timeline .lane1 { fill: #ffffff; }
.timeline .lane-label { fill: var(--ink); font-weight: 600; }
.timeline .life { stroke: #8c959f; stroke-width: 6; stroke-linecap: round; opacity: .55; }
.timeline .life.killed { stroke: #fa4549; }
.timeline .label { fill: var(--muted); }
.timeline .tick { fill: var(--muted); font-size: 9px; }
.timeline .proc { fill: var(--ink); font-size: 9px; text-anchor: end; }
.timeline .label.bad { fill: var(--fail); font-weight: 700; } .timeline .label.point { fill: #8250df; font-weight: 600; } .timeline .label.warn { fill: #bc4c00; }
.ev.request circle { fill: #fff; stroke: #0969da; stroke-width: 2; } .ev.result circle { fill: #0969da; }
.ev.error circle { fill: #fb8f44; stroke: #bc4c00; } .ev.crashpoint path { fill: #8250df; }
.ev.resume path { fill: #8c959f; } .ev.kill path { stroke: var(--fail); stroke-width: 3; }
.ev.exit line, .ev.start line { stroke: #57606a; stroke-width: 2; }
.ev.restart line { stroke: #8250df; stroke-dasharray: 4 3; stroke-width: 1.5; }
.ev.target rect { fill: #1f883d; } .ev.target.dedup rect { fill: #8c959f; }
.ev.disclosure circle { fill: #d4a72c; stroke: #7d4e00; } .ev.elided line { stroke: #8c959f; stroke-dasharray: 2 4; stroke-width: 6; }
.legend { list-style: none; padding: 0; margin: 4px 0; display: flex; flex-wrap: wrap; gap: 4px 14px; color: var(--muted); font-size: 12px; }
.swatch { display: inline-block; width: 11px; height: 11px; margin-right: 4px; vertical-align: -1px; border-radius: 2px; }
.swatch.request { border: 2px solid #0969da; border-radius: 50%; } .swatch.result { background: #0969da; border-radius: 50%; }
.swatch.error { background: #fb8f44; border-radius: 50%; } .swatch.crashpoint { background: #8250df; transform: rotate(45deg); }
.swatch.kill { background: var(--fail); } .swatch.restart { border-left: 2px dashed #8250df; border-radius: 0; }
.swatch.target { background: #1f883d; } .swatch.disclosure { background: #d4a72c; border-radius: 50%; } .swatch.life { background: #8c959f; height: 5px; }
details.events > summary, details.fold > summary { cursor: pointer; color: var(--muted); }
ol.steps li { margin: 2px 0; }
ol.steps li.violating { background: #ffebe9; font-weight: 600; }
.counterexample { border-left: 3px solid var(--fail); padding: 2px 0 2px 12px; margin: 8px 0; }
tr.answer td { background: var(--panel); } tr.answer code.no { color: var(--fail); }
tr.diff pre { margin: 0; max-height: none; }
table.rows caption { text-align: left; font-weight: 600; padding: 4px 0; }
table.rows td.changed { background: #fff8c5; }
details.passes { margin: 16px 0; } details.passes > summary { cursor: pointer; }
details.passes > summary h2 { display: inline; border: 0; margin: 0; padding: 0; }
ul.scenario-lines, ul.trial-lines { list-style: none; padding: 0; margin: 6px 0; }
ul.scenario-lines li { padding: 2px 0; border-bottom: 1px solid var(--line); }
ul.scenario-lines .id { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-weight: 600; }
.filters details.families { display: inline-block; } .filters details.families[open] { display: block; width: 100%; }
.filters details.families > summary { cursor: pointer; font-weight: 600; }
p.why { font-size: 15px; }
footer { margin-top: 30px; color: var(--muted); font-size: 12px; }
@media print { .filters { position: static; } details.scenario { break-inside: avoid; } }
`;

/** The page script: counts what the filters show and adds expand/collapse buttons. The page works without it. */
export const PAGE_SCRIPT = `
(function () {
  var scenarios = Array.prototype.slice.call(document.querySelectorAll('.scenario'));
  var folds = Array.prototype.slice.call(document.querySelectorAll('details.scenario, details.passes'));
  var shown = document.getElementById('shown');
  function count() {
    var n = scenarios.filter(function (s) { return getComputedStyle(s).display !== 'none'; }).length;
    if (shown) shown.textContent = n + ' of ' + scenarios.length + ' scenario(s) shown';
  }
  document.querySelectorAll('.filters input').forEach(function (i) { i.addEventListener('change', count); });
  var tools = document.querySelector('.filters .tools');
  if (tools) {
    tools.hidden = false;
    document.getElementById('expand').addEventListener('click', function () { folds.forEach(function (s) { s.open = true; }); });
    document.getElementById('collapse').addEventListener('click', function () { folds.forEach(function (s) { s.open = false; }); });
  }
  count();
})();
`;
