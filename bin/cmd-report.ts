// `ejc report`: renders a report file for people; today one self-contained HTML page with every trial's timeline.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EjcError } from '../shared/errors.js';
import { writeMasked } from '../harness/masked-output.js';
import { reportHtml } from '../reports/html.js';
import '../harness/pack-sections.js';
import { readReportJson } from '../reports/read-report.js';
import { verifyReport } from '../reports/verify.js';
import { flag, parseCommand, stringValue } from './args.js';
import { EXIT } from './exit-codes.js';
import { helpText } from './help.js';

/** Runs `ejc report <report.json> --html <file>`; exits 1 when the report does not verify (the page says so too). */
export async function reportCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand('report', argv, { html: { type: 'string' } }, { min: 1, max: 1 });
  if (flag(parsed, 'help')) {
    process.stdout.write(helpText('report'));
    return EXIT.ok;
  }
  const html = stringValue(parsed, 'html');
  if (html === undefined) throw new EjcError('usage', 'ejc report needs --html <file>: where to write the page; see ejc report --help');
  const path = parsed.positionals[0]!;
  const value = await readReportJson(path);
  const { problems } = verifyReport(value);
  await writeMasked(html, reportHtml(value, { problems }));
  const scenarios = Array.isArray((value as { scenarios?: unknown }).scenarios) ? (value as { scenarios: unknown[] }).scenarios.length : 0;
  process.stdout.write(`wrote ${html} (${scenarios} scenario(s)); open ${pathToFileURL(resolve(html)).href} in a browser\n`);
  if (problems.length === 0) return EXIT.ok;
  process.stdout.write(`${path} does not verify (${problems.length} problem(s), shown at the top of the page); run ejc verify ${path}\n`);
  return EXIT.problems;
}
