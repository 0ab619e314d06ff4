// Loading a report file with errors a user can act on: which file, which byte, which field.
import { readFile } from 'node:fs/promises';
import { EjcError } from '../shared/errors.js';
import { Report } from './schema.js';

/** Reads and schema-checks a report; report_unreadable for a missing file or bad JSON, report_invalid for a non-report. */
export async function readReport(path: string): Promise<Report> {
  const value = await readReportJson(path);
  const parsed = Report.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first === undefined ? '' : ` at ${['$', ...first.path.map(String)].join('.')}: ${first.message}`;
    const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more problem(s); run ejc verify)` : '';
    throw new EjcError('report_invalid', `${path} is not a conformance report${where}${more}`, { cause: parsed.error });
  }
  return parsed.data;
}

/** Reads a file and parses it as JSON without judging its shape (verify wants to report every problem itself). */
export async function readReportJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new EjcError('report_unreadable', `cannot read report ${path}: ${why}`, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new EjcError('report_unreadable', `report ${path} is not JSON: ${describeJsonError(error as Error, text)}`, { cause: error });
  }
}

// V8's message carries the offset ("... at position 12"); line and column are what an editor jumps to.
function describeJsonError(error: Error, text: string): string {
  const match = /position (\d+)/.exec(error.message);
  if (text.trim() === '') return 'the file is empty';
  if (match === null) return error.message;
  const position = Number(match[1]);
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return `${error.message} (line ${line}, column ${column})`;
}
