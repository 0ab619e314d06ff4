// `ejc verify`: re-checks a report file, and with --rerun reproduces it and compares outcome digests.
import { execa } from 'execa';
import { EjcError } from '../harness/errors.js';
import { readReportJson } from '../reports/read-report.js';
import { Report } from '../reports/schema.js';
import { verifyReport } from '../reports/verify.js';
import '../reports/pack-sections.js';
import { flag, parseCommand } from './args.js';
import { EXIT } from './exit-codes.js';
import { helpText } from './help.js';
import { splitCommand } from './split-command.js';

/** Runs `ejc verify <report> [--rerun]` and returns the exit code. */
export async function verifyCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand('verify', argv, { rerun: { type: 'boolean' } }, { min: 1, max: 1 });
  if (flag(parsed, 'help')) return printHelp();
  const path = parsed.positionals[0]!;
  const value = await readReportJson(path);
  const result = verifyReport(value);
  if (!result.ok) {
    process.stdout.write(`${path}: ${result.problems.length} problem(s)\n${result.problems.map((p) => `  ${p}\n`).join('')}`);
    return EXIT.problems;
  }
  const report = value as Report;
  process.stdout.write(`${path}: valid ${report.verdict} report (${report.scenarios.length} scenarios, contentHash ${report.contentHash})\n`);
  if (report.partial !== undefined) {
    process.stdout.write(`${path}: partial: --bail stopped the run after ${report.partial.stoppedAfter}; ${report.partial.notRun.length} scenario(s) never ran\n`);
  }
  if (!flag(parsed, 'rerun')) return EXIT.ok;
  return rerun(report);
}

// The reproduce command is data from a file: only an `ejc run` is accepted, and it runs through
// this very ejc, never a shell, with its output flags removed so it cannot overwrite the report.
async function rerun(report: Report): Promise<number> {
  const args = rerunArgs(report.reproduce.run);
  process.stderr.write(`rerunning: ejc ${args.join(' ')}\n`);
  const child = await execa(process.execPath, [process.argv[1]!, ...args], { reject: false, stdin: 'ignore', stderr: 'inherit', maxBuffer: 1 << 30 });
  if (child.exitCode === EXIT.error || child.exitCode === undefined) {
    throw new EjcError('internal', `the rerun failed (exit ${String(child.exitCode)}); its stderr is above`);
  }
  let rerunReport: unknown;
  try {
    rerunReport = JSON.parse(child.stdout);
  } catch (error) {
    throw new EjcError('internal', 'the rerun did not print a report on stdout', { cause: error });
  }
  const check = verifyReport(rerunReport);
  const digest = (rerunReport as { outcomeDigest?: unknown }).outcomeDigest;
  const problems = check.problems.map((p) => `rerun report: ${p}`);
  if (digest !== report.outcomeDigest) problems.push(`$.outcomeDigest: the report has ${report.outcomeDigest}, the rerun produced ${String(digest)}`);
  if (problems.length > 0) {
    process.stdout.write(`rerun does not reproduce the report:\n${problems.map((p) => `  ${p}\n`).join('')}`);
    return EXIT.problems;
  }
  process.stdout.write(`rerun reproduces the outcome digest ${report.outcomeDigest}\n`);
  return EXIT.ok;
}

/** The argv (after `ejc`) of a report's reproduce.run command, made safe to rerun. */
export function rerunArgs(command: string): string[] {
  const tokens = splitCommand(command);
  const start = tokens[0] === 'npx' ? 1 : 0;
  if (tokens[start] !== 'ejc' || tokens[start + 1] !== 'run') {
    throw new EjcError('report_invalid', `reproduce.run is not an "ejc run" command: ${command}`);
  }
  const args: string[] = [];
  const rest = tokens.slice(start + 1);
  for (let i = 0; i < rest.length; i++) {
    const t = rest[i]!;
    if (t === '--out' || t === '--junit') i++;
    else if (!t.startsWith('--out=') && !t.startsWith('--junit=') && t !== '--json') args.push(t);
  }
  return [...args, '--json'];
}

function printHelp(): number {
  process.stdout.write(helpText('verify'));
  return EXIT.ok;
}
