// `ejc merge`: joins the shard reports of one run into the report the unsharded run would have written.
import { join, resolve } from 'node:path';
import { EjcError } from '../shared/errors.js';
import { toJUnit } from '../reports/junit.js';
import { mergeReports } from '../reports/merge.js';
import '../harness/pack-sections.js';
import { readReport } from '../reports/read-report.js';
import { writeArtifact, writeReportFile } from '../reports/write-report.js';
import { checkOutputs, refuseExistingReport, type OutputTarget } from './output-paths.js';
import { flag, parseCommand, stringValue } from './args.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { helpText } from './help.js';

/** Runs `ejc merge <reports...> --out <dir>` and returns the merged verdict's exit code. */
export async function mergeCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand('merge', argv, { out: { type: 'string' }, junit: { type: 'string' }, force: { type: 'boolean' }, 'integrity-only': { type: 'boolean' } }, { min: 1, max: Infinity });
  if (flag(parsed, 'help')) {
    process.stdout.write(helpText('merge'));
    return EXIT.ok;
  }
  const out = stringValue(parsed, 'out');
  if (out === undefined) throw new EjcError('usage', 'ejc merge needs --out <dir> for the merged report; see ejc merge --help');
  const junit = stringValue(parsed, 'junit');
  const target = join(out, 'report.json');
  const outputs: OutputTarget[] = [{ flag: '--out', given: out, dir: resolve(out), file: resolve(target) }];
  if (junit !== undefined) outputs.push({ flag: '--junit', given: junit, file: resolve(junit) });
  refuseExistingReport(out, flag(parsed, 'force'));
  await checkOutputs(outputs, parsed.positionals.map((path) => ({ flag: 'shard report', path })));
  const reports = [];
  for (const path of parsed.positionals) reports.push(await readReport(path));
  const merged = mergeReports(reports, { reportPath: target });
  await writeReportFile(out, merged);
  if (junit !== undefined) await writeArtifact(junit, toJUnit(merged));
  const s = merged.summary;
  process.stdout.write(
    `merged ${reports.length} shard(s) into ${target}: ${merged.verdict} ` +
      `(${s.passed} passed, ${s.failed} failed, ${s.inconclusive} inconclusive, ${s.notApplicable} not applicable)\n` +
      `outcomeDigest ${merged.outcomeDigest}\n`,
  );
  // The merged verdict decides, as the unsharded run's would; --integrity-only only asks whether the shards merged.
  return flag(parsed, 'integrity-only') ? EXIT.ok : exitCodeFor(merged);
}
