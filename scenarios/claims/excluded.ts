// Which scenarios a claim keeps out of the run: named in every finding that a false claim narrowed the test.
import type { Capabilities } from '../../shared/protocol/schemas.js';
import { missingNeed, type Need } from '../../harness/scenario.js';
import { allScenarios } from '../catalog.js';
import { scenarioFamily } from '../../reports/family.js';

/** "N scenario(s) of families a, b" that need `need` and do not apply under `caps`. */
export function excludedByClaim(need: Need, caps: Capabilities): string {
  const ids = allScenarios().filter((s) => s.needs.includes(need) && missingNeed(s.needs, caps) !== null).map((s) => s.id);
  const families = [...new Set(ids.map(scenarioFamily))];
  return `${ids.length} scenario(s)${families.length === 0 ? '' : ` (${families.join(', ')})`}`;
}
