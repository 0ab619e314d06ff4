import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPORT_SCHEMA_FILE, reportJsonSchemaText } from '../../reports/json-schema.js';

describe('report.schema.json', () => {
  it('is up to date with the zod schema (run `npm run gen:schema` when this fails)', async () => {
    const committed = await readFile(fileURLToPath(new URL(`../../${REPORT_SCHEMA_FILE}`, import.meta.url)), 'utf8');
    expect(committed).toBe(reportJsonSchemaText());
  });

  it('describes the report fields', () => {
    const schema = JSON.parse(reportJsonSchemaText()) as { required: string[]; properties: Record<string, unknown> };
    expect(schema.required).toEqual(expect.arrayContaining(['verdict', 'scenarios', 'contentHash', 'outcomeDigest', 'boundary']));
    expect(schema.properties['verdict']).toEqual({ type: 'string', enum: ['conformant', 'nonconformant', 'inconclusive'] });
  });
});
