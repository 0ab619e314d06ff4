// §11's file-byte guarantee at its edges: a freed run result, a value spanning overflow pages, a checkpoint that said
// complete, and a deferred checkpoint retried by the next open. Every answer "complete" is followed by a judged scan.
import { defineScenario, type Need, type Scenario } from '../../harness/scenario.js';
import { canary, defaultCall, scanCanaries, snapshotAfter, snapshotBefore } from '../support.js';
import { continueRun, startRun } from '../../harness/engine/run-engine.js';
import type { RunScript } from '../../harness/engine/model.js';
import { resumeSession } from '../../harness/engine/session-engine.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';

const SPEC = 'effect-journal §11 ("after a successful checkpoint, bytes freed from the upgrade onward survive in neither the main database nor WAL"), §9';
const SID = 'sess-erase';
/** Larger than any SQLite page size a journal picks by default (4096): the value spans overflow pages. */
const LARGE = 9000;

export const edgeErasure: Scenario[] = [
  defineScenario({
    id: 'erasure.run-result-after-terminal',
    title: 'A run result freed by the terminal sweep is gone from every file once a checkpoint completes',
    spec: SPEC,
    tags: ['secrets', 'byte-scan', 'run', 'retention'],
    needs: [],
    description:
      `A two-node run whose first node retains a large result (about ${LARGE} characters, overflow pages in SQLite) carrying a canary at both ends is paused after that node: ` +
      'the canary must be visible while the run can resume (control). The run then finishes, its terminal sweep frees the row, and a checkpoint is asked for: when it answers complete, no file under the journal directory may still hold the canary (an archive table, a tombstone, a freelist page, a WAL frame).',
    asserts: ['control: the retained result is visible while the run is resumable', 'the terminal sweep deleted the committed rows', 'the checkpoint after the terminal completes', 'zero canary hits after it'],
    async trial(t) {
      const token = canary(t);
      const run = largeResultRun(t, token);
      const client = await t.driver();
      await startRun(t, client, run, { pauseAfter: 1 });
      await snapshotBefore(t, client);
      if (!(await control(t, client, token))) return;
      const out = await continueRun(t, client, run);
      t.expect('run status', 'completed', out.status);
      await judgedCheckpoint(t, client, token, 'after the terminal sweep');
      t.expect('rows left after the terminal', [], (await snapshotAfter(t, client)).map((r) => r.effectId));
    },
  }),
  withLegacy('erasure.large-legacy-result-cleared', 'A legacy session result spanning overflow pages is cleared from every file on open', [], async (t, token, first) => {
    await first.close();
    const client = await t.driver();
    t.expect('canary hits after the open-time clear (the value spanned overflow pages)', 0, await scanCanaries(t, client, [token]));
    return client;
  }),
  withLegacy('erasure.checkpoint-complete-means-erased', 'A checkpoint that answers complete has erased: a reader pinned at the WAL\'s end makes it deferred', ['sqliteWal', 'fault:checkpoint_blocked_by_reader'], async (t, token, client) => {
    await client.op('fault', { fault: 'checkpoint_blocked_by_reader', enabled: true });
    const resumed = await resumeSession(t, client, SID);
    t.expect('sweep checkpoint with a reader holding an older snapshot', 'deferred', resumed.sweep?.checkpoint);
    // A new reader now pins the WAL's last frame: every frame can be copied back, yet the WAL cannot be reset.
    await client.op('fault', { fault: 'checkpoint_blocked_by_reader', enabled: false });
    await client.op('fault', { fault: 'checkpoint_blocked_by_reader', enabled: true });
    const pinned = await client.op('checkpoint', {});
    if (pinned.checkpoint === 'complete') t.expect('canary hits after a checkpoint that answered complete under a reader', 0, await scanCanaries(t, client, [token]));
    else await scanCanaries(t, client, [token], 'control');
    t.expect('checkpoint under a reader pinned at the WAL end', 'deferred', pinned.checkpoint);
    await client.op('fault', { fault: 'checkpoint_blocked_by_reader', enabled: false });
    await judgedCheckpoint(t, client, token, 'after the reader went');
    return client;
  }),
  withLegacy('erasure.deferred-retried-on-open', 'A checkpoint a reader deferred is retried by the next open, though it has nothing to clear', ['sqliteWal', 'fault:checkpoint_blocked_by_reader'], async (t, token, client) => {
    await client.op('fault', { fault: 'checkpoint_blocked_by_reader', enabled: true });
    const resumed = await resumeSession(t, client, SID, { deferSweep: true });
    // SIGKILL right after the deferred sweep: a clean close would let SQLite checkpoint on its own and hide the gap.
    t.planCrash({ kind: 'boundary', boundary: 'after-session-sweep' });
    await t.untilCrash(() => resumed.sweepLater?.(client) ?? Promise.resolve());
    t.expect('sweep checkpoint with a blocked reader', 'deferred', resumed.sweep?.checkpoint);
    const next = await t.driver();
    t.expect('canary hits after the next open (no row to clear, no sweep)', 0, await scanCanaries(t, next, [token]));
    return next;
  }),
];

// Two nodes so the run can pause after the first (live, resumable) and finish later (terminal).
function largeResultRun(t: TrialContext, token: string): RunScript {
  const call = defaultCall({ response: { padding: LARGE, marker: token } });
  return {
    runId: t.rng.id('run'),
    nodes: [
      // The bound keeps the whole response in the model value; the mapping puts the marker at the result's end as well.
      { nodeId: 'node-a', calls: [call], mapping: { field: 'note', bound: LARGE * 2 } },
      { nodeId: 'node-b', calls: [defaultCall({ slot: 0, toolId: 'write_file', target: 'files', args: { path: '/tmp/edge', append: true }, secretArgKeys: [] })] },
    ],
  };
}

// The canary must be visible before the erasure, or its absence afterwards proves nothing.
async function control(t: TrialContext, client: JournalClient, token: string): Promise<boolean> {
  if ((await scanCanaries(t, client, [token], 'control')) > 0) return true;
  t.inconclusiveReason = 'control failed: the planted canary is not visible in the files before the erasure, so its absence afterwards would prove nothing';
  return false;
}

// An explicit checkpoint with no reader must complete, and a complete checkpoint must have erased the freed bytes.
async function judgedCheckpoint(t: TrialContext, client: JournalClient, token: string, when: string): Promise<void> {
  const answer = await client.op('checkpoint', {});
  t.expect(`checkpoint ${when}`, 'complete', answer.checkpoint);
  t.expect(`canary hits ${when}, checkpoint ${answer.checkpoint}, connection open`, 0, await scanCanaries(t, client, [token]));
}

type Body = (t: TrialContext, token: string, client: JournalClient) => Promise<JournalClient>;

// Plants a committed legacy session row whose result (large: overflow pages) holds a canary at both ends, then runs the body.
function withLegacy(id: string, title: string, needs: Need[], body: Body): Scenario {
  return defineScenario({
    id,
    title,
    spec: SPEC,
    tags: ['secrets', 'byte-scan', 'session', 'wal'],
    needs: ['sessions', 'seeding', ...needs],
    description: `${title}. A legacy writer's session row holding a ${LARGE}-character result with a canary at its start and end is planted; the scan must see it first (control), then must not after the erasure.`,
    asserts: ['control: the canary is visible before the erasure', title],
    async trial(t) {
      const token = canary(t);
      const client = await t.driver();
      const result = JSON.stringify({ modelValue: `${token}${'x'.repeat(LARGE)}`, truncated: false, summary: 's', outputMappingResult: token });
      await client.op('seed', { rows: [{ scope: { kind: 'session', sessionId: SID, turn: 0 }, slot: 0, toolId: 'http_request', tier: 3, state: 'committed', argsDigest: 'v5:' + 'b'.repeat(64), callId: 'eng-legacy-erase', resultJson: result }] });
      await snapshotBefore(t, client);
      if (!(await control(t, client, token))) return;
      const last = await body(t, token, client);
      await snapshotAfter(t, last);
    },
  });
}
