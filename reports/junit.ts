// JUnit XML for CI dashboards: one testsuite per report, one testcase per scenario, grouped by family.
import { markDifference, worthMarking } from './string-diff.js';
import { maskText } from '../shared/secrets/mask.js';
import { scenarioFamily } from './family.js';
import { failedTrialRows } from './failure-text.js';
import type { Report, ScenarioResult } from './schema.js';
import { describeCause, rootCauseHeadline, rootCauses } from './root-causes.js';

/**
 * Renders a report as JUnit XML: classname = the scenario's family (`cp04`, `kxm`; no dots of its own, so
 * dashboards do not split it into packages), name = scenario id, the implementation's stderr tail in
 * `<system-err>`. Masked like every artifact the harness writes.
 */
export function toJUnit(report: Report): string {
  const cases = report.scenarios.map(testcase);
  const failures = report.scenarios.filter((s) => s.verdict === 'failed' || s.verdict === 'stale_expected_failure').length;
  const errors = report.scenarios.filter((s) => s.verdict === 'inconclusive').length;
  const skipped = report.scenarios.filter((s) => s.verdict === 'not_applicable' || s.verdict === 'expected_failure').length;
  const suite = attrs({
    name: `ejc ${report.implementation.name} ${report.implementation.version}`,
    tests: report.scenarios.length,
    failures,
    errors,
    skipped,
    time: seconds(report.durationMs),
    timestamp: report.startedAt,
  });
  const causes = rootCauses(report.scenarios);
  const properties = [
    // The root causes lead: one deviation that fails fifty testcases is one thing to fix.
    ...(causes.length === 0 ? [] : [property('rootCauses', rootCauseHeadline(causes)!), ...causes.map((c, i) => property(`rootCause.${i + 1}`, describeCause(c)))]),
    property('verdict', report.verdict),
    property('seed', String(report.seed)),
    property('outcomeDigest', report.outcomeDigest),
    property('contentHash', report.contentHash),
    property('reproduce', report.reproduce.run),
  ].join('\n');
  return maskText(`<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n<testsuite ${suite}>\n<properties>\n${properties}\n</properties>\n${cases.join('\n')}\n</testsuite>\n</testsuites>\n`);
}

/** Escapes text for XML content and attribute values, dropping characters XML 1.0 cannot carry at all. */
export function escapeXml(text: string): string {
  return stripInvalidXmlChars(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

function testcase(s: ScenarioResult): string {
  const head = `<testcase ${attrs({ classname: scenarioFamily(s.id), name: s.id, time: seconds(s.durationMs) })}`;
  const err = systemErr(s);
  switch (s.verdict) {
    case 'passed':
      return `${head}/>`;
    case 'failed':
      return `${head}>\n<failure ${attrs({ message: s.reason ?? 'an assertion failed', type: 'failed' })}>${escapeXml(failureBody(s))}</failure>${err}\n</testcase>`;
    case 'stale_expected_failure':
      return `${head}>\n<failure ${attrs({ message: 'passed, but listed as an expected failure: remove it from the expect-failures file', type: 'stale_expected_failure' })}>${escapeXml(`reproduce: ${s.reproduce}`)}</failure>\n</testcase>`;
    case 'inconclusive':
      return `${head}>\n<error ${attrs({ message: s.reason ?? inconclusiveReason(s), type: 'inconclusive' })}>${escapeXml(inconclusiveBody(s))}</error>${err}\n</testcase>`;
    case 'not_applicable':
      return `${head}>\n<skipped ${attrs({ message: `not applicable: ${s.reason ?? 'a needed capability is missing'}` })}/>\n</testcase>`;
    case 'expected_failure':
      return `${head}>\n<skipped ${attrs({ message: `expected failure: ${s.reason ?? 'an assertion failed'}` })}/>\n</testcase>`;
  }
}

// The driver's stderr tail, where dashboards show a test's output; empty when the implementation wrote nothing.
function systemErr(s: ScenarioResult): string {
  const tail = s.trials.flatMap((t) => t.stderrTail.map((l) => `[${t.id}] ${l}`));
  return tail.length === 0 ? '' : `\n<system-err>${escapeXml(tail.join('\n'))}</system-err>`;
}

function failureBody(s: ScenarioResult): string {
  const lines: string[] = s.spec === '' ? [] : [`contract: ${s.spec}`];
  for (const t of s.trials) {
    for (const a of t.assertions) {
      if (a.passed) continue;
      lines.push(`trial ${t.id}: ${a.name}`, `  expected: ${show(a.expected)}`, `  actual:   ${show(a.actual)}`);
      if (typeof a.expected === 'string' && typeof a.actual === 'string' && worthMarking(a.expected, a.actual)) lines.push(...markDifference(a.expected, a.actual).map((l) => `  ${l}`));
    }
  }
  lines.push(...failedTrialRows(s, 4));
  lines.push(`reproduce: ${s.reproduce}`);
  return lines.join('\n');
}

function inconclusiveReason(s: ScenarioResult): string {
  return s.trials.find((t) => t.inconclusiveReason !== null)?.inconclusiveReason ?? 'no conclusive trial';
}

function inconclusiveBody(s: ScenarioResult): string {
  const lines: string[] = [];
  for (const t of s.trials) {
    if (t.verdict !== 'inconclusive') continue;
    lines.push(`trial ${t.id}: ${t.inconclusiveReason ?? t.violations[0]?.message ?? 'planned kill not observed'}`);
  }
  lines.push(`reproduce: ${s.reproduce}`);
  return lines.join('\n');
}

function show(value: unknown): string {
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

function property(name: string, value: string): string {
  return `<property ${attrs({ name, value })}/>`;
}

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}="${escapeXml(String(v)).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;')}"`)
    .join(' ');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

// XML 1.0 allows only tab, LF, CR, U+0020-U+D7FF, U+E000-U+FFFD and paired surrogates; anything else makes the file unparseable.
function stripInvalidXmlChars(text: string): string {
  return text.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD');
}
