// The report's JSON Schema, generated from the zod schema so non-TypeScript consumers can validate witness artifacts.
import { z } from 'zod';
import { Report } from './schema.js';

/** The committed file's exact text: JSON Schema of the report, pretty-printed with a trailing newline. */
export function reportJsonSchemaText(): string {
  const schema = z.toJSONSchema(Report, { target: 'draft-2020-12', unrepresentable: 'any' });
  return `${JSON.stringify({ ...schema, title: 'ejc conformance report', $id: REPORT_SCHEMA_ID }, null, 2)}\n`;
}

/** Where the schema is committed, relative to the package root. */
export const REPORT_SCHEMA_FILE = 'reports/report.schema.json';

const REPORT_SCHEMA_ID = 'https://effect-journal-conformance.invalid/report.schema.json';
