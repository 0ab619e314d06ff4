// The rename table: every new id exists, no old id is still in use, the doc matches, and old ids keep working with a warning.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { currentIds, parseExpectFailures } from '../../bin/expect-failures.js';
import { listScenarios } from '../../scenarios/catalog.js';
import { RENAMED_DOC_FILE, RENAMED_SCENARIOS, renamedScenariosDoc } from '../../scenarios/renamed.js';

const ids = new Set(listScenarios().map((s) => s.id));

describe('renamed scenario ids', () => {
  it('maps every old id to a scenario the catalog has, and no old id is still a scenario', () => {
    for (const [from, to] of Object.entries(RENAMED_SCENARIOS)) {
      expect(ids.has(to), `${from} → ${to}`).toBe(true);
      expect(ids.has(from), from).toBe(false);
    }
  });

  it('no family is named after how its bugs were found', () => {
    for (const id of ids) expect(id, id).not.toMatch(/^(blind\d*|gap\d*|edge|journal|metamorphic|session|evasive)\./);
  });

  it('docs/renamed-scenarios.md is up to date (run npm run gen:docs)', () => {
    const committed = readFileSync(new URL(`../../${RENAMED_DOC_FILE}`, import.meta.url), 'utf8');
    expect(committed).toBe(renamedScenariosDoc());
  });

  it('an --expect-failures file with an old id counts it as the new one and warns naming the new id', () => {
    const warnings: string[] = [];
    const parsed = parseExpectFailures('blind2.open.kill-every-write # old\ncp07.rival\n', (line) => warnings.push(line));
    expect([...parsed]).toEqual(['sweep.open.every-write', 'cp07.rival']);
    expect(warnings).toEqual([expect.stringContaining('blind2.open.kill-every-write is now sweep.open.every-write')]);
  });

  it('a selected old id maps to its new one with a warning; a glob or current id passes through silently', () => {
    const warnings: string[] = [];
    expect(currentIds(['journal.scope-exact', 'cp04.*', 'gate.every-cell'], (line) => warnings.push(line))).toEqual(['identity.scope-exact', 'cp04.*', 'gate.every-cell']);
    expect(warnings).toHaveLength(1);
  });
});
