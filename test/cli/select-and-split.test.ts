import { describe, expect, it } from 'vitest';
import { closestIds, parseShard, selectScenarios, shardOf } from '../../harness/select-scenarios.js';
import { recordedDurations } from '../../harness/scenario-durations.js';
import { allScenarios } from '../../scenarios/catalog.js';
import { parseExpectFailures } from '../../bin/expect-failures.js';
import { splitCommand } from '../../shared/split-command.js';

const all = [
  { id: 'cp04.after-settle', tags: ['crash', 'replay'] },
  { id: 'cp01.before-commit', tags: ['crash'] },
  { id: 'cp03.after-target', tags: ['crash', 'tier3'] },
  { id: 's8e.batch', tags: ['witness'] },
  { id: 'cp02.after-prepare', tags: ['crash', 'tier3'] },
];

describe('selectScenarios', () => {
  it('filters by globs and tags, keeping catalog order', () => {
    expect(selectScenarios(all, [], [], null)).toEqual(all);
    expect(selectScenarios(all, ['cp0?.after-*'], [], null).map((s) => s.id)).toEqual(['cp04.after-settle', 'cp03.after-target', 'cp02.after-prepare']);
    expect(selectScenarios(all, ['s8e.*', 'cp01.before-commit'], [], null).map((s) => s.id)).toEqual(['cp01.before-commit', 's8e.batch']);
    expect(selectScenarios(all, ['cp*'], ['tier3'], null).map((s) => s.id)).toEqual(['cp03.after-target', 'cp02.after-prepare']);
  });

  it('shards by recorded duration: longest first onto the least-loaded shard, the rest by count; disjoint and complete', () => {
    const durations = new Map([['s8e.batch', 900], ['cp04.after-settle', 500], ['cp02.after-prepare', 400], ['cp01.before-commit', 300]]);
    const shards = [1, 2, 3].map((index) => selectScenarios(all, [], [], { index, count: 3 }, [], durations).map((s) => s.id));
    // s8e 900 -> 1, cp04 500 -> 2, cp02 400 -> 3, cp01 300 -> 3 (least time); cp03 has no duration -> 1 (fewest scenarios, lowest index)
    expect(shards).toEqual([['cp03.after-target', 's8e.batch'], ['cp04.after-settle'], ['cp01.before-commit', 'cp02.after-prepare']]);
    expect(shards.flat().sort()).toEqual(all.map((s) => s.id).sort());
  });

  it('without durations, shards by position in sorted id order', () => {
    const shards = [1, 2, 3].map((index) => selectScenarios(all, [], [], { index, count: 3 }, [], new Map()).map((s) => s.id));
    // sorted: cp01, cp02, cp03, cp04, s8e -> shard 1 gets positions 0 and 3
    expect(shards).toEqual([['cp04.after-settle', 'cp01.before-commit'], ['s8e.batch', 'cp02.after-prepare'], ['cp03.after-target']]);
  });

  it('balances the real catalog by the committed witness, whatever order the catalog lists it in', () => {
    const catalog = allScenarios();
    const recorded = recordedDurations();
    expect(catalog.filter((s) => recorded.has(s.id)).length).toBeGreaterThan(catalog.length / 2);
    const owners = shardOf(catalog.map((s) => s.id), 2, recorded);
    expect(shardOf(catalog.map((s) => s.id).reverse(), 2, recorded)).toEqual(owners);
    const time = [1, 2].map((i) => [...owners].filter(([, o]) => o === i).reduce((sum, [id]) => sum + (recorded.get(id) ?? 0), 0));
    // Longest-first greedy: the shards differ by at most the longest single scenario.
    expect(Math.abs(time[0]! - time[1]!)).toBeLessThanOrEqual(Math.max(...recorded.values()));
  });

  it('refuses a glob or tag that matches nothing, with the closest ids', () => {
    expect(() => selectScenarios(all, ['cp3.*'], [], null)).toThrow(/no scenario matches cp3\.\* \(closest: /);
    expect(() => selectScenarios(all, [], ['tier4'], null)).toThrow(/no scenario has tag tier4 \(closest: tier3/);
    expect(() => parseShard('0/2')).toThrow(/out of range/);
    expect(parseShard('2/5')).toEqual({ index: 2, count: 5 });
    expect(closestIds(all.map((s) => s.id), 'cp04.after-setle', 1)).toEqual(['cp04.after-settle']);
  });
});

describe('splitCommand and expect-failures files', () => {
  it('splits quoted words without a shell', () => {
    expect(splitCommand(`npx ejc run --cmd 'python3 my journal.py' --impl-option "k=a \\"b\\"" x\\ y`)).toEqual([
      'npx', 'ejc', 'run', '--cmd', 'python3 my journal.py', '--impl-option', 'k=a "b"', 'x y',
    ]);
    expect(splitCommand("--scenario 'it'\\''s'")).toEqual(['--scenario', "it's"]);
    expect(() => splitCommand('ejc run; rm -rf /')).toThrow(/shell operator ;/);
    expect(() => splitCommand('ejc run $(whoami)')).toThrow(/shell operator \$/);
    expect(() => splitCommand("ejc run 'open")).toThrow(/quote is not closed/);
  });

  it('parses an expect-failures file with comments', () => {
    expect([...parseExpectFailures('# known\ncp03.after-target  # issue 12\n\n  cp07.rival\r\n')]).toEqual(['cp03.after-target', 'cp07.rival']);
  });
});
