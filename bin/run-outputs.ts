// What a finished run writes besides the report: the HTML page, and in GitHub Actions the annotations and the step summary.
import { appendMasked, printMasked, writeMasked } from '../harness/masked-output.js';
import { annotationLines, inGitHubActions, stepSummary } from '../reports/github-actions.js';
import { reportHtml } from '../reports/html.js';
import type { Report } from '../reports/schema.js';

export interface RunOutputs {
  readonly reportPath: string | null;
  /** Where to write the HTML page, or null. */
  readonly html: string | null;
  readonly kept: ReadonlyMap<string, readonly string[]>;
  /** Where workflow commands go: stdout, or stderr when stdout carries only the report. */
  readonly annotations: NodeJS.WritableStream;
  readonly env?: NodeJS.ProcessEnv;
}

/** Writes the HTML page if asked, and in GitHub Actions prints the annotations and appends the step summary. */
export async function publishRunOutputs(report: Report, outputs: RunOutputs): Promise<void> {
  const env = outputs.env ?? process.env;
  if (outputs.html !== null) {
    await writeMasked(outputs.html, reportHtml(report));
    process.stderr.write(`wrote the HTML report ${outputs.html} (open it in a browser; it loads nothing from the network)\n`);
  }
  if (!inGitHubActions(env)) return;
  const lines = annotationLines(report, outputs.kept);
  if (lines.length > 0) printMasked(outputs.annotations, `${lines.join('\n')}\n`);
  const summaryFile = env['GITHUB_STEP_SUMMARY'];
  if (summaryFile === undefined || summaryFile === '') return;
  try {
    await appendMasked(summaryFile, stepSummary(report, outputs.reportPath));
  } catch (error) {
    // The report is written and the verdict stands; a summary the runner cannot take must not turn it into a harness error.
    process.stderr.write(`warning: could not append the step summary to $GITHUB_STEP_SUMMARY (${summaryFile}): ${(error as Error).message}\n`);
  }
}
