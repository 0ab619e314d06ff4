// `npm run gen:schema`: rewrites reports/report.schema.json from the zod schema (a test fails while it is stale).
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { REPORT_SCHEMA_FILE, reportJsonSchemaText } from './json-schema.js';

/** Writes the schema file under the package root and returns its path. */
export async function generateSchemaFile(): Promise<string> {
  // Compiled to dist/reports/, so the package root is two levels up.
  const target = fileURLToPath(new URL(`../../${REPORT_SCHEMA_FILE}`, import.meta.url));
  await writeFile(target, reportJsonSchemaText());
  return target;
}

const path = await generateSchemaFile();
process.stdout.write(`wrote ${path}\n`);
