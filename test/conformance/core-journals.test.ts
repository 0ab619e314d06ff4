// The core red team's realistic broken journals are caught, each by its metamorphic scenario, as a failure (never
// inconclusive); the from-scratch file journal they are made of passes every metamorphic scenario it can run.
import { describe, expect, it } from 'vitest';
import { runTargetScenarios } from './run-targets.js';

const core = (await import(new URL('../broken/realistic/core-index.mjs', import.meta.url).href)) as {
  CORE: Array<{ name: string; scenario: string }>;
  CORE_FILES_JOURNAL: string;
  coreModule: (name: string) => string;
};

describe('core red-team journals (effect-journal §2–§9, §13)', () => {
  for (const { name, scenario } of core.CORE) {
    it(`${name} fails ${scenario}`, async () => {
      const report = await runTargetScenarios(core.coreModule(name), {}, [scenario]);
      const outcome = report.scenarios.map((s) => [s.id, s.verdict, s.reason]);
      expect(outcome, JSON.stringify(outcome)).toEqual([[scenario, 'failed', expect.any(String)]]);
      expect(report.verdict).toBe('nonconformant');
    });
  }

  it('the from-scratch file journal, without its authors\' bugs, passes the scenarios that catch them', async () => {
    const scenarios = [...new Set(core.CORE.filter((c) => c.name.startsWith('core-files-')).map((c) => c.scenario))];
    const report = await runTargetScenarios(core.coreModule(core.CORE_FILES_JOURNAL), {}, scenarios);
    expect(Object.fromEntries(report.scenarios.map((s) => [s.id, s.verdict === 'passed' ? 'passed' : `${s.verdict}: ${s.reason}`]))).toEqual(Object.fromEntries(scenarios.map((id) => [id, 'passed'])));
    expect(report.verdict).toBe('conformant');
  });
});
