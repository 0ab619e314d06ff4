import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dir } from 'tmp-promise';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readReport } from '../../reports/read-report.js';
import { writeReportFile } from '../../reports/write-report.js';
import { buildReport } from './fixture.js';

let tmp: { path: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  tmp = await dir({ unsafeCleanup: true });
});
afterEach(async () => {
  await tmp.cleanup();
});

describe('readReport', () => {
  it('round-trips a written report', async () => {
    const report = buildReport();
    const path = await writeReportFile(join(tmp.path, 'out'), report);
    expect(await readReport(path)).toEqual(report);
  });

  it('says report_unreadable for a missing file and for bad JSON with its position', async () => {
    await expect(readReport(join(tmp.path, 'nope.json'))).rejects.toMatchObject({ code: 'report_unreadable', message: expect.stringMatching(/no such file/) });
    const bad = join(tmp.path, 'bad.json');
    await writeFile(bad, '{\n  "seed": 1,\n}\n');
    await expect(readReport(bad)).rejects.toMatchObject({ code: 'report_unreadable', message: expect.stringMatching(/line 3, column 1/) });
  });

  it('says report_invalid with the first bad field for JSON that is not a report', async () => {
    const path = join(tmp.path, 'other.json');
    await writeFile(path, JSON.stringify({ ...buildReport(), verdict: 'great' }));
    await expect(readReport(path)).rejects.toMatchObject({ code: 'report_invalid', message: expect.stringMatching(/at \$\.verdict/) });
  });
});
