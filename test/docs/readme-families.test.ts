// The README's list of scenario families is the catalog's: a family added, renamed or dropped fails here until the list follows.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listScenarios } from '../../scenarios/catalog.js';
import { FAMILY_TITLES, listingFamily } from '../../scenarios/families.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The families the README's marked list names: `x.*` per line, with `cp01.*`–`cp11.*` as the crash matrix `cp`. */
function readmeFamilies(): string[] {
  const start = README.indexOf('<!-- families');
  const end = README.indexOf('<!-- /families -->');
  expect(start, 'the README marks its family list').toBeGreaterThanOrEqual(0);
  const block = README.slice(start, end);
  const lines = block.split('\n').filter((l) => l.startsWith('- '));
  return lines.map((l) => {
    const first = /^- `([a-z0-9]+)\.\*`/.exec(l)?.[1];
    expect(first, l).toBeDefined();
    return /^cp\d+$/.test(first!) ? 'cp' : first!;
  });
}

describe('README family list', () => {
  const catalog = [...new Set(listScenarios().map((s) => listingFamily(s.id)))].sort();

  it('names exactly the catalog families, once each', () => {
    const listed = readmeFamilies();
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(catalog);
  });

  it('gives the crash matrix as cp01–cp11, the range the catalog holds', () => {
    const points = [...new Set(listScenarios().map((s) => /^cp(\d+)\./.exec(s.id)?.[1]).filter((n) => n !== undefined))].sort();
    expect(README).toContain(`\`cp${points[0]}.*\`–\`cp${points.at(-1)}.*\``);
  });

  it('every catalog family has a heading line for ejc list', () => {
    for (const family of catalog) expect(FAMILY_TITLES[family], family).toBeDefined();
  });
});
