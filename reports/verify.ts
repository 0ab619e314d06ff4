// Re-checks a conformance report from nothing but its own bytes: schema, seals, arithmetic and every verdict.
import { canonicalJson, hasLoneSurrogate } from '../shared/canonical-json.js';
import { claimBoundary } from './boundary.js';
import { claimedScope } from './scope.js';
import { reportVerdict, scenarioVerdict, sumCounts, summarize, trialVerdict, wasExpectedFailure } from './derive.js';
import { Report, CountKeys, REPORT_SCHEMA_NAME, REPORT_SCHEMA_VERSION } from './schema.js';
import type { Counts } from './schema.js';
import { computeContentHash, computeOutcomeDigest } from './seal.js';
import { checkBinding } from './verify-binding.js';

export interface VerifyResult {
  ok: boolean;
  problems: string[];
}

/** Checks a section a scenario pack added under `sections[name]`; returns problems (paths relative to the section). */
export type SectionVerifier = (section: unknown, report: Report) => string[];

/** Verifies a parsed report value; every problem names the path it is about. */
export function verifyReport(value: unknown): VerifyResult {
  const problems: string[] = [];
  findCanaries(value, '$', problems);
  const unsealable = findLoneSurrogates(value, '$', problems);
  const version = otherVersion(value);
  if (version !== null) return { ok: false, problems: [...problems, version] };
  const parsed = Report.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${formatPath(issue.path)}: schema: ${issue.message}`);
    return { ok: false, problems };
  }
  const report = parsed.data;
  // zod drops fields it does not know; a report that carries extra claims must not verify silently.
  findUnknownFields(value, report, '$', problems);
  // Without I-JSON text there is no canonical form to hash: every seal check would throw.
  if (unsealable) return { ok: false, problems };
  checkSeals(report, problems);
  checkScenarios(report, problems);
  checkTotals(report, problems);
  checkClaims(report, problems);
  checkPartial(report, problems);
  checkSections(report, problems);
  checkBinding(report, problems);
  return { ok: problems.length === 0, problems };
}

/** Registers the verifier for `sections[name]`; sections without a verifier are accepted as they are. */
export function registerSectionVerifier(name: string, fn: SectionVerifier): void {
  sectionVerifiers.set(name, fn);
}

const sectionVerifiers = new Map<string, SectionVerifier>();

// A canary is a planted secret; finding one means the report leaked bytes it must only ever hash.
const CANARY = /EJC-CANARY-[0-9A-Za-z]+/;

function findCanaries(value: unknown, path: string, problems: string[]): void {
  if (typeof value === 'string') {
    if (CANARY.test(value)) problems.push(`${path}: holds a canary value; a report may hold only hashes of secrets`);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => findCanaries(v, `${path}[${i}]`, problems));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const child = `${path}.${k}`;
      if (CANARY.test(k)) problems.push(`${child}: key holds a canary value; a report may hold only hashes of secrets`);
      findCanaries(v, child, problems);
    }
  }
}

// A report of another schema version would drown in schema problems; one line says what it is instead.
function otherVersion(value: unknown): string | null {
  const schema = isObject(value) && isObject(value['schema']) ? value['schema'] : null;
  if (schema === null || schema['name'] !== REPORT_SCHEMA_NAME || schema['version'] === REPORT_SCHEMA_VERSION) return null;
  return `$.schema.version: is ${JSON.stringify(schema['version'])}; this ejc reads version ${REPORT_SCHEMA_VERSION} reports: verify it with the ejc version that wrote it`;
}

function findLoneSurrogates(value: unknown, path: string, problems: string[]): boolean {
  let found = false;
  const visit = (v: unknown, at: string): void => {
    if (typeof v === 'string') {
      if (hasLoneSurrogate(v)) {
        problems.push(`${at}: holds a lone surrogate, which RFC 8785 canonical JSON refuses; the report cannot be hashed`);
        found = true;
      }
    } else if (Array.isArray(v)) v.forEach((x, i) => visit(x, `${at}[${i}]`));
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        visit(k, `${at} (a member name)`);
        visit(x, `${at}.${k}`);
      }
    }
  };
  visit(value, path);
  return found;
}

function findUnknownFields(raw: unknown, parsed: unknown, path: string, problems: string[]): void {
  if (Array.isArray(raw) && Array.isArray(parsed)) {
    raw.forEach((v, i) => findUnknownFields(v, parsed[i], `${path}[${i}]`, problems));
  } else if (isObject(raw) && isObject(parsed)) {
    for (const [k, v] of Object.entries(raw)) {
      if (!Object.hasOwn(parsed, k)) problems.push(`${path}.${k}: unknown field`);
      else findUnknownFields(v, parsed[k], `${path}.${k}`, problems);
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function checkSeals(report: Report, problems: string[]): void {
  const digest = computeOutcomeDigest(report);
  if (digest !== report.outcomeDigest) problems.push(`$.outcomeDigest: is ${report.outcomeDigest}, the outcome view hashes to ${digest}`);
  const hash = computeContentHash(report);
  if (hash !== report.contentHash) problems.push(`$.contentHash: is ${report.contentHash}, the content hashes to ${hash}`);
}

function checkScenarios(report: Report, problems: string[]): void {
  const seen = new Set<string>();
  report.scenarios.forEach((s, i) => {
    const at = `$.scenarios[${i}]`;
    if (seen.has(s.id)) problems.push(`${at}.id: scenario ${s.id} appears more than once`);
    seen.add(s.id);
    s.trials.forEach((t, j) => {
      const tat = `${at}.trials[${j}]`;
      const derived = trialVerdict(t);
      if (derived !== t.verdict) problems.push(`${tat}.verdict: is ${t.verdict}, its evidence derives ${derived}`);
      if (t.verdict === 'passed' && t.plannedKills > 0) {
        const sigkills = t.kills.filter((k) => k.signal === 'SIGKILL').length;
        if (t.kills.length < t.plannedKills || sigkills !== t.kills.length) {
          problems.push(`${tat}.kills: a passed trial planned ${t.plannedKills} kill(s) but recorded ${sigkills} SIGKILL of ${t.kills.length}`);
        }
      }
      if (t.counts.kills !== t.kills.length) problems.push(`${tat}.counts.kills: is ${t.counts.kills}, the trial records ${t.kills.length} kill(s)`);
    });
    if (s.trials.length === 0) {
      // Without trials nothing ran: only "not applicable" or "could not run" can be true, with a reason.
      if (s.verdict !== 'not_applicable' && s.verdict !== 'inconclusive') problems.push(`${at}.verdict: is ${s.verdict} with no trials`);
      if (s.reason === null) problems.push(`${at}.reason: a scenario without trials must say why`);
    } else {
      const derived = scenarioVerdict(s.trials, { expectedFailure: wasExpectedFailure(s.verdict) });
      if (derived !== s.verdict) problems.push(`${at}.verdict: is ${s.verdict}, its trials derive ${derived}`);
    }
  });
}

function checkTotals(report: Report, problems: string[]): void {
  const counts = sumCounts(report.scenarios.flatMap((s) => s.trials));
  compareCounts(report.counts, counts, '$.counts', problems);
  const summary = summarize(report.scenarios);
  for (const [k, v] of Object.entries(summary)) {
    const recorded = report.summary[k as keyof typeof summary];
    if (recorded !== v) problems.push(`$.summary.${k}: is ${recorded}, the scenarios derive ${v}`);
  }
  const verdict = reportVerdict(summary);
  if (verdict !== report.verdict) problems.push(`$.verdict: is ${report.verdict}, the summary derives ${verdict}`);
}

function compareCounts(recorded: Counts, derived: Counts, path: string, problems: string[]): void {
  for (const k of CountKeys) {
    if (recorded[k] !== derived[k]) problems.push(`${path}.${k}: is ${recorded[k]}, the trials sum to ${derived[k]}`);
  }
}

function checkClaims(report: Report, problems: string[]): void {
  if (report.verdict === 'conformant') {
    if (report.counts.duplicateWrites !== 0) problems.push(`$.counts.duplicateWrites: a conformant report has ${report.counts.duplicateWrites}, must be 0`);
    if (report.counts.restartWrites !== 0) problems.push(`$.counts.restartWrites: a conformant report has ${report.counts.restartWrites}, must be 0`);
  }
  if (canonicalJson(report.boundary) !== canonicalJson(claimBoundary(report.implementation.capabilities.externalState, report.environment))) {
    problems.push('$.boundary: differs from the fixed boundary of the claim (process-crash durability only)');
  }
  // A report that hid what its claims kept out would overstate its verdict: the scope must be what the scenarios show.
  if (report.scope !== undefined && canonicalJson(report.scope) !== canonicalJson(claimedScope(report.scenarios))) {
    problems.push('$.scope: differs from the not-applicable scenarios the report holds (what the claims kept out of the run)');
  }
}

// A partial report (--bail) is valid as what it is: it stopped after a scenario that fails a gate, and never ran the rest.
function checkPartial(report: Report, problems: string[]): void {
  const partial = report.partial;
  if (partial === undefined) return;
  const stopped = report.scenarios.find((s) => s.id === partial.stoppedAfter);
  if (stopped === undefined) problems.push(`$.partial.stoppedAfter: ${partial.stoppedAfter} is not among the scenarios the report holds`);
  else if (stopped.verdict === 'passed' || stopped.verdict === 'not_applicable' || stopped.verdict === 'expected_failure') {
    problems.push(`$.partial.stoppedAfter: ${partial.stoppedAfter} is ${stopped.verdict}; a run stops only at a failure`);
  }
  if (report.verdict === 'conformant') problems.push('$.partial: a partial report cannot be conformant');
  const ran = new Set(report.scenarios.map((s) => s.id));
  partial.notRun.forEach((id, i) => {
    if (ran.has(id)) problems.push(`$.partial.notRun[${i}]: ${id} is also among the scenarios that ran`);
  });
}

function checkSections(report: Report, problems: string[]): void {
  for (const [name, section] of Object.entries(report.sections)) {
    const verifier = sectionVerifiers.get(name);
    if (verifier === undefined) continue;
    let found: string[];
    try {
      found = verifier(section, report);
    } catch (error) {
      found = [`section verifier threw: ${error instanceof Error ? error.message : String(error)}`];
    }
    for (const p of found) problems.push(`$.sections.${name}: ${p}`);
  }
}

function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : `${acc}.${String(key)}`), '$');
}
