// docs/scenarios.md is generated from the scenario definitions; this fails when someone forgets to regenerate it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listScenarios } from '../../scenarios/catalog.js';
import { renderScenariosDoc, SCENARIOS_DOC_FILE } from '../../scenarios/scenarios-doc.js';

describe('scenario catalog', () => {
  it('docs/scenarios.md is up to date (run npm run gen:docs)', () => {
    const committed = readFileSync(new URL(`../../${SCENARIOS_DOC_FILE}`, import.meta.url), 'utf8');
    expect(committed).toBe(renderScenariosDoc(listScenarios()));
  });

  it('every scenario has a unique id, a spec reference, tags and at least one stated assertion', () => {
    const all = listScenarios();
    expect(new Set(all.map((s) => s.id)).size).toBe(all.length);
    for (const s of all) {
      expect(s.spec, s.id).toMatch(/§/);
      expect(s.tags.length, s.id).toBeGreaterThan(0);
      expect(s.asserts.length, s.id).toBeGreaterThan(0);
    }
  });

  it('covers all eleven crash-matrix points of spec §12', () => {
    const ids = listScenarios().map((s) => s.id);
    for (let n = 1; n <= 11; n++) expect(ids.some((id) => id.startsWith(`cp${String(n).padStart(2, '0')}.`)), `cp${n}`).toBe(true);
  });
});
