import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeFixture, type Fixture } from './helpers.js';

// Child processes run compiled JS: `npx tsc -p .` must have produced dist/ first.
const COMPILED = resolve(import.meta.dirname, '../../dist/reference-impl/index.js');

const CHILD = `
const { createReferenceJournal } = await import(process.env.EJC_REF_MODULE);
const journal = createReferenceJournal({ crashpoint: () => {}, options: {} });
journal.open({ dir: process.env.EJC_DIR });
const verdicts = [];
for (let slot = 0; slot < Number(process.env.EJC_SLOTS); slot++) {
  const v = journal.prepare({
    correlation: { kind: 'run', runId: 'R', nodeId: 'N', attempt: 1 }, slot, toolId: 'charge', tier: 3,
    args: { amount: 5 }, secretArgKeys: [],
    audit: { providerAttempt: 0, callId: 'c' + slot, ownerId: process.env.EJC_OWNER, generation: 1 },
  });
  verdicts.push(v.verdict === 'refuse' ? v.code : v.verdict);
}
journal.close();
process.stdout.write(JSON.stringify(verdicts));
`;

let fx: Fixture;
beforeEach(async () => {
  fx = await makeFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

describe('two processes preparing the same identities', () => {
  it('for every identity exactly one process proceeds and the other is refused as duplicate', async () => {
    expect(existsSync(COMPILED), 'run `npx tsc -p .` first').toBe(true);
    const slots = 40;
    const run = (owner: string) =>
      execa('node', ['--input-type=module', '-e', CHILD], {
        env: { EJC_REF_MODULE: pathToFileURL(COMPILED).href, EJC_DIR: fx.dir, EJC_SLOTS: String(slots), EJC_OWNER: owner },
      });
    const [a, b] = await Promise.all([run('owner-a'), run('owner-b')]);
    const va = JSON.parse(a.stdout) as string[];
    const vb = JSON.parse(b.stdout) as string[];
    for (let slot = 0; slot < slots; slot++) {
      expect([va[slot], vb[slot]].sort()).toEqual(['duplicate_identity', 'proceed']);
    }
    const effects = fx.open().listEffects().effects;
    expect(effects).toHaveLength(slots);
  });
});
