// The vitest entry in a project's own vitest run: a failing scenario names its kept trial directory, carries the
// CLI's defaults into its reproduce command, and annotates itself in GitHub Actions whatever reporters are configured.
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { dir } from 'tmp-promise';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const BROKEN = join(REPO, 'test', 'broken', 'broken-journal.mjs');

describe('conformanceSuite in a consumer vitest run', () => {
  it('reports the kept trial directory, reproduces with the CLI defaults and annotates the failure', async () => {
    const tmp = await dir({ unsafeCleanup: true });
    try {
      const suite = `import { conformanceSuite } from ${JSON.stringify(join(REPO, 'dist', 'vitest.js'))};
conformanceSuite({ name: 'broken', impl: ${JSON.stringify(BROKEN)}, implOptions: { defect: 'ack-settle-before-durable' }, scenarios: ['cp04.after-settle'] });
`;
      await writeFile(join(tmp.path, 'conformance.test.mjs'), suite);
      // A reporter list without github-actions: the entry's own annotation must not depend on vitest's.
      const run = await execa(process.execPath, [join(REPO, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', tmp.path, '--reporter=verbose'], {
        reject: false,
        stdin: 'ignore',
        env: { CI: 'true', GITHUB_ACTIONS: 'true', TMPDIR: tmp.path, NO_COLOR: '1' },
      });
      const output = `${run.stdout}\n${run.stderr}`;
      expect(run.exitCode, output).toBe(1);
      const kept = (await readdir(tmp.path)).filter((n) => /^tmp-\d+-/.test(n)).map((n) => join(tmp.path, n));
      expect(kept).toHaveLength(1);
      expect(existsSync(join(kept[0]!, 'transcript.jsonl'))).toBe(true);
      expect(output).toContain(`ejc: kept the trial directory of cp04.after-settle: ${kept[0]}`);
      expect(output).toContain(`kept: ${kept[0]} (transcript.jsonl holds every protocol line)`);
      // The CLI's default timeout, so the command carries no --timeout of its own.
      expect(output).toContain(`reproduce: npx ejc run --impl ${BROKEN} --impl-option defect=ack-settle-before-durable --scenario cp04.after-settle --seed 1 --keep-failed`);
      expect(output).toMatch(/^::error title=ejc failed%3A cp04\.after-settle::cp04\.after-settle failed: assertion failed: gate decision%0A/m);
    } finally {
      await tmp.cleanup();
    }
  });
});
