import { describe, expect, it } from 'vitest';
import { listScenarios } from '../../scenarios/catalog.js';
import { ejc } from './ejc-process.js';

describe('ejc list and explain', () => {
  it('lists every scenario with spec and tags, as a table and as JSON', async () => {
    const ids = listScenarios().map((s) => s.id);
    const table = await ejc(['list']);
    expect(table.exitCode).toBe(0);
    for (const id of ids) expect(table.stdout).toContain(id);
    expect(table.stdout).toContain(`${ids.length} scenario(s)`);
    // Grouped by family, one heading line each.
    expect(table.stdout).toMatch(/^== identity\.\*: /m);
    expect(table.stdout).toMatch(/^== cp01–cp11: /m);
    const json = await ejc(['list', '--json']);
    expect((JSON.parse(json.stdout) as Array<{ id: string }>).map((s) => s.id)).toEqual(ids);
  });

  it('filters by tag and refuses an unknown tag', async () => {
    const tagged = listScenarios().filter((s) => s.tags.includes('tier3')).map((s) => s.id);
    expect(tagged.length).toBeGreaterThan(0);
    const r = await ejc(['list', '--json', '--tag', 'tier3']);
    expect((JSON.parse(r.stdout) as Array<{ id: string }>).map((s) => s.id)).toEqual(tagged);
    const unknown = await ejc(['list', '--tag', 'no-such-tag']);
    expect(unknown.exitCode).toBe(3);
    expect(unknown.stderr).toContain('no scenario has tag no-such-tag');
  });

  it('explains a scenario and names the closest ids for an unknown one', async () => {
    const s = listScenarios().find((x) => x.id === 'cp04.after-settle')!;
    const r = await ejc(['explain', s.id]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`${s.id}: ${s.title}`);
    expect(r.stdout).toContain(`spec:  ${s.spec}`);
    for (const a of s.asserts) expect(r.stdout).toContain(`  - ${a}`);
    const unknown = await ejc(['explain', 'cp04.after-setle']);
    expect(unknown.exitCode).toBe(3);
    expect(unknown.stderr).toMatch(/unknown scenario cp04\.after-setle; closest: cp04\.after-settle/);
  });
});
