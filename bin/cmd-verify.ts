// `ejc verify`: re-checks a report file, authenticates it with --trust, and with --rerun reproduces it with the auditor's implementation.
import { existsSync } from 'node:fs';
import { EjcError } from '../shared/errors.js';
import { gateOutcome } from '../reports/derive.js';
import { readReportJson } from '../reports/read-report.js';
import type { Report } from '../reports/schema.js';
import { keyId, readPublicKey } from '../reports/sign-keys.js';
import { envelopePathFor, verifySignedReport } from '../reports/sign-statement.js';
import { verifyReport } from '../reports/verify.js';
import '../harness/pack-sections.js';
import { flag, parseCommand, stringValue, stringValues } from './args.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { helpText } from './help.js';
import { rerunReport } from './rerun.js';

const VERIFY_FLAGS = {
  rerun: { type: 'boolean' },
  trust: { type: 'string', multiple: true },
  envelope: { type: 'string' },
  impl: { type: 'string' },
  'impl-option': { type: 'string', multiple: true },
  'impl-files': { type: 'string', multiple: true },
  cmd: { type: 'string' },
  'accept-report-command': { type: 'boolean' },
  jobs: { type: 'string' },
  'integrity-only': { type: 'boolean' },
} as const;

/** Runs `ejc verify <report> [--trust <key>]... [--rerun ...]` and returns the exit code. */
export async function verifyCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand('verify', argv, VERIFY_FLAGS, { min: 1, max: 1 });
  if (flag(parsed, 'help')) return printHelp();
  const rerunOnly = ['impl', 'impl-option', 'impl-files', 'cmd', 'accept-report-command', 'jobs'].filter((f) => parsed.values[f] !== undefined);
  if (!flag(parsed, 'rerun') && rerunOnly.length > 0) throw new EjcError('usage', `--${rerunOnly[0]} only applies with --rerun; see ejc verify --help`);
  const path = parsed.positionals[0]!;
  const value = await readReportJson(path);
  const signature = signatureFileHint(path, value);
  if (signature !== null) {
    process.stdout.write(`${path}: ${signature}\n`);
    return EXIT.problems;
  }
  const result = verifyReport(value);
  if (!result.ok) {
    process.stdout.write(`${path}: ${result.problems.length} problem(s)\n${result.problems.map((p) => `  ${p}\n`).join('')}`);
    return EXIT.problems;
  }
  const report = value as Report;
  process.stdout.write(`${path}: valid ${report.verdict} report (${report.scenarios.length} scenarios, contentHash ${report.contentHash})\n`);
  const expected = report.scenarios.filter((s) => s.verdict === 'expected_failure').map((s) => s.id);
  if (expected.length > 0) {
    const gate = gateOutcome(report.summary) === 'known_failures' ? 'every failure is listed as expected, so its run exits 0' : 'it also has failures not listed as expected or inconclusive scenarios';
    process.stdout.write(`  ${expected.length} expected failure(s): ${expected.join(', ')}; ${gate}\n`);
  }
  if (report.partial !== undefined) {
    process.stdout.write(`${path}: partial: --bail stopped the run after ${report.partial.stoppedAfter}; ${report.partial.notRun.length} scenario(s) never ran\n`);
  }
  const envelopePath = stringValue(parsed, 'envelope') ?? envelopePathFor(path);
  const trust = stringValues(parsed, 'trust');
  if (trust.length === 0) {
    process.stdout.write(
      `  self-consistent but unauthenticated: anyone can write or reseal a report that verifies; ` +
        `${existsSync(envelopePath) ? `pass --trust <public key> to check its signature ${envelopePath}` : 'a signed report (ejc sign, ejc run --sign) is checked with --trust <public key>'}\n`,
    );
  } else if (!(await authenticate(report, envelopePath, trust))) {
    return EXIT.problems;
  }
  if (flag(parsed, 'rerun')) return rerunReport(report, parsed);
  if (flag(parsed, 'integrity-only')) return EXIT.ok;
  // A valid report exits with its verdict, as its run did: CI that verifies a downloaded report gates on what it says.
  const code = exitCodeFor(report);
  if (code !== EXIT.ok) process.stdout.write(`  exit ${code}: the report is intact and its verdict is ${report.verdict} (--integrity-only exits 0 for any intact report)\n`);
  return code;
}

/** What to say when the file is a signature, not a report: a DSSE envelope or the in-toto statement it carries. */
export function signatureFileHint(path: string, value: unknown): string | null {
  if (value === null || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const envelope = typeof v['payloadType'] === 'string' && typeof v['payload'] === 'string' && Array.isArray(v['signatures']);
  const statement = typeof v['_type'] === 'string' && String(v['_type']).startsWith('https://in-toto.io/Statement') && 'predicate' in v;
  if (!envelope && !statement) return null;
  const report = path.endsWith('.dsse.json') ? `${path.slice(0, -'.dsse.json'.length)}.json` : 'report.json';
  const what = envelope ? 'a DSSE signature envelope (ejc sign writes one beside the report)' : 'an in-toto statement, the payload of a signature envelope';
  return `is ${what}, not a report. Verify the report it signs and pass the envelope with it: ejc verify ${report} --trust <public key>${path.endsWith('.dsse.json') ? '' : ` --envelope ${path}`}`;
}

async function authenticate(report: Report, envelopePath: string, trust: string[]): Promise<boolean> {
  const keys = await Promise.all(trust.map((k) => readPublicKey(k)));
  let envelope: unknown;
  try {
    envelope = await readReportJson(envelopePath);
  } catch (error) {
    if (error instanceof EjcError && /no such file/.test(error.message)) {
      process.stdout.write(`  not authenticated: no signature envelope at ${envelopePath} (sign with ejc sign, or pass --envelope <file>)\n`);
      return false;
    }
    throw error;
  }
  const check = verifySignedReport(report, envelope, keys);
  if (!check.ok) {
    process.stdout.write(`  not authenticated by ${envelopePath}:\n${check.problems.map((p) => `    ${p}\n`).join('')}`);
    return false;
  }
  const trusted = keys.map(keyId).filter((id) => check.trustedBy.includes(id));
  process.stdout.write(`  authenticated: signed by trusted key ${trusted.join(', ')}; the statement's subject is this report's implementation fingerprint ${report.fingerprint.digest}\n`);
  return true;
}

function printHelp(): number {
  process.stdout.write(helpText('verify'));
  return EXIT.ok;
}
