// §11 on evidence no encoding can hide: the journal's files do not grow with the size of a secret argument.
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { callPrepare, defaultCall } from '../support.js';
import { journalFiles } from '../../harness/world/byte-scan.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';

/** The large secret: random base64, so no compression keeps it in much less (a quarter of its bytes at most). */
export const LARGE_SECRET_BYTES = 256 * 1024;
/** How much more the journal's files may hold with the large secret than with the small one. */
export const GROWTH_LIMIT = LARGE_SECRET_BYTES / 4;

export const secretsSize: Scenario[] = [
  defineScenario({
    id: 'secrets.size-leaves-no-trace',
    title: 'The journal\'s files do not grow with the size of a secret argument: no form of it is kept, encrypted or not',
    spec: 'effect-journal §11 ("a journal row never stores argument bytes"; secret keys are "excluded before hashing, not hashed and hidden")',
    tags: ['secrets', 'run'],
    needs: [],
    description:
      `Two fresh journals run the same calls (a committed and an ambiguous run effect, then a checkpoint) whose declared secret argument is 16 characters in one and ${LARGE_SECRET_BYTES / 1024} KiB of random base64 in the other; everything else is equal. ` +
      `The byte scans look for a secret in the encodings they know; a journal that keeps the arguments encrypted ("at rest") under a key of its own, or in any other form no scan can decode, still keeps bytes that grow with the secret. ` +
      `The files of the second journal (every file under its directory and every file it lists) must not hold more than ${GROWTH_LIMIT / 1024} KiB more than the first's: nothing derived from the secret but its absence may be kept.`,
    asserts: [`the journal's files hold less than ${GROWTH_LIMIT / 1024} KiB more with the large secret than with the small one`],
    async trial(t) {
      const runId = t.rng.id('run');
      const small = await storedBytes(t, 'small', runId, randomBase64(t, 12));
      const large = await storedBytes(t, 'large', runId, randomBase64(t, (LARGE_SECRET_BYTES * 3) / 4));
      const growth = large - small;
      t.check(
        `growth of the journal's files with a ${LARGE_SECRET_BYTES / 1024} KiB secret argument instead of a 16-character one`,
        `less than ${GROWTH_LIMIT} bytes`,
        growth < GROWTH_LIMIT ? `less than ${GROWTH_LIMIT} bytes` : `${growth} bytes (${small} with the small secret, ${large} with the large one)`,
        growth < GROWTH_LIMIT,
      );
    },
  }),
];

// One journal of its own: the calls with `secret` in the declared secret key, then the sum of its files' sizes.
async function storedBytes(t: TrialContext, label: string, runId: string, secret: string): Promise<number> {
  const client = await t.driver(label, { journalDir: join(t.dir, label) });
  const correlation = { kind: 'run', runId, nodeId: 'node-a', attempt: 1 } as const;
  for (const [slot, state] of [[0, 'committed'], [1, 'ambiguous']] as const) {
    const v = await client.op('prepare', { ...callPrepare(t, correlation, defaultCall({ canary: secret, slot })), audit: { providerAttempt: 1, callId: `call-${slot}`, ownerId: 'engine', generation: 0 } });
    if (v.verdict !== 'proceed') continue;
    await client.op('settle', state === 'committed'
      ? { effectId: v.effectId, state, result: { modelValue: 'ok', truncated: false, summary: 'ok', outputMappingResult: 'ok' } }
      : { effectId: v.effectId, state, reason: 'the target did not answer' });
  }
  await client.op('checkpoint', {});
  const { files } = await client.op('files', {});
  let bytes = 0;
  for (const file of journalFiles(client.journalDir, files)) {
    try {
      bytes += statSync(file).size;
    } catch {
      // Listed but gone: it holds nothing.
    }
  }
  await client.close();
  return bytes;
}

// `n` bytes from the trial's seed as base64: a SHA-256 stream, so the run repeats.
function randomBase64(t: TrialContext, n: number): string {
  const seed = `${t.rng.next()}`;
  const out = Buffer.alloc(n);
  for (let at = 0, i = 0; at < n; i++) at += createHash('sha256').update(`${seed}:${i}`).digest().copy(out, at);
  return out.toString('base64');
}
