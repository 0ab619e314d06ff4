// A journal's hello against evidence it does not control: its files and SQLite headers, the operations it says it lacks, its crash points.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { callPrepare, rows } from '../support.js';
import { describeSqlite, showsSqliteWal, storageEvidence, unlistedFiles } from '../../harness/claims/storage-evidence.js';
import { OPERATION_CLAIMS, claimedOperation, gateClaimFinding, outerProbeClaimFinding } from './operation-claims.js';
import { committedRows } from '../sweep/chunks.js';
import { excludedByClaim } from './excluded.js';
import { failedIfNotHeld, heldLook } from './crash-points-beyond-prepare.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';

export const claimsHello: Scenario[] = [
  defineScenario({
    id: 'claims.storage-matches-hello',
    title: 'The files the journal names and its sqliteWal claim agree with what its directory holds',
    spec: 'effect-journal §11 (secrets absent from every file the journal keeps), §10; ejc protocol: hello.capabilities.sqliteWal, open/files',
    tags: ['claims', 'run'],
    needs: [],
    description:
      'Opens the journal, prepares and settles one run effect, then reads the journal directory itself: every regular file there must be named by `files` (a SQLite -shm or -journal of a named file aside), and the SQLite headers and -wal files decide whether the rows live in SQLite in WAL mode, which must be what `sqliteWal` claims. A journal that names fewer files or says sqliteWal: false over WAL files would otherwise narrow the byte scans and the checkpoint scenarios by what it claims.',
    asserts: ['every file under the journal directory is named by files (and open)', 'sqliteWal is claimed exactly when a SQLite file there is in WAL mode (header formats 2, or a -wal file)'],
    async trial(t) {
      const client = await t.driver();
      const params = callPrepare(t, { kind: 'run', runId: t.rng.id('run'), nodeId: 'node-a', attempt: 1 });
      const verdict = await client.op('prepare', params);
      if (verdict.verdict === 'proceed') await client.op('settle', { effectId: verdict.effectId, state: 'committed', result: { modelValue: 'ok', truncated: false, summary: 'ok', outputMappingResult: 'ok' } });
      const { files } = await client.op('files', {});
      const evidence = storageEvidence(client.journalDir);
      const listed = [...new Set([...files, ...(client.openedFiles ?? [])])];
      t.expect('files under the journal directory that neither files nor open names', [], unlistedFiles(client.journalDir, evidence, listed));
      const wal = showsSqliteWal(evidence);
      const claimed = t.capabilities.sqliteWal === true;
      const shown = describeSqlite(client.journalDir, evidence);
      t.check(
        'capabilities.sqliteWal matches the files (SQLite header bytes 18/19 and -wal files, read by the harness)',
        wal ? 'sqliteWal: true (the files are SQLite in WAL mode)' : 'sqliteWal absent or false (no SQLite file in WAL mode)',
        `sqliteWal: ${String(t.capabilities.sqliteWal ?? 'absent')}; ${shown.length === 0 ? 'no SQLite file' : shown.join('; ')}${wal && !claimed ? `; the claim kept out ${excludedByClaim('sqliteWal', t.capabilities)}` : ''}`,
        wal === claimed,
      );
    },
  }),
  defineScenario({
    id: 'claims.operations-match-hello',
    title: 'An operation the journal says it lacks answers unsupported; one it claims works',
    spec: 'effect-journal §10 (a report claims no more than was tested); ejc protocol: hello.capabilities (sessions, kxm, resolution, seeding, gate), the unsupported error code',
    tags: ['claims', 'run'],
    needs: [],
    description:
      'Probes each operation a capability stands for (sessionRead of a fresh session, kxm.list of a fresh run, seed of one legacy row, resolve of an unresolved tier-3 effect, and with outerTransactionProbe: false a sessionSweep of one committed row sent insideOuterTransaction, which must not answer outer_transaction) and, for gate: "harness", the journal\'s own gate over that effect. A capability claimed false must answer `unsupported` (seed: `seed_unsupported`): a journal that works while saying it does not would keep every scenario of that family out of the run. A claimed one must not answer unsupported. A journal whose gate answers while it claims gate: "harness" must agree with the harness\'s gate over its rows.',
    asserts: ['each capability claimed false answers unsupported when probed (outerTransactionProbe: false: anything but outer_transaction)', 'each capability claimed true does not answer unsupported', 'with gate: "harness", the journal\'s own gate answers unsupported or the harness\'s decision'],
    async trial(t) {
      const client = await t.driver();
      const runId = t.rng.id('run');
      const verdict = await client.op('prepare', callPrepare(t, { kind: 'run', runId, nodeId: 'node-a', attempt: 1 }));
      const effectId = verdict.verdict === 'proceed' ? verdict.effectId : null;
      if (t.capabilities.gate === 'harness') await gateClaim(t, client, runId);
      for (const claim of OPERATION_CLAIMS) {
        const answer = await claim.probe(t, client, { runId, effectId });
        const finding = claimedOperation(claim, t.capabilities, answer);
        t.check(finding.name, finding.expected, finding.actual, finding.passed);
      }
      // Claimed true, cp11.session-sweep.outer-transaction checks the probe; claimed false, it must not be answered as one.
      if (t.capabilities.sessions && !t.capabilities.outerTransactionProbe) await outerProbeClaim(t, client);
    },
  }),
  defineScenario({
    id: 'claims.crash-points-block',
    title: 'An announced prepare crash point is reached and blocks: held before commit nothing is visible, held after commit the row is',
    spec: 'effect-journal §12.1; ejc protocol: announced crash points block until resumed',
    tags: ['claims', 'run', 'concurrency'],
    needs: ['point:prepare.before-commit'],
    description:
      'A first driver prepares and is held at each announced prepare point; a second driver on the same files lists the rows meanwhile. Held at prepare.before-commit the effect must not be visible (the point is before the commit and the journal waits there); held at prepare.after-commit it must be. The look waits until /proc shows the held driver blocked (every thread asleep, no CPU time added over 40 ms; at most 500 ms): a journal that goes on without its resume has answered by then, on any load, and fails, as does one that changes a file under its directory while held. A point announced but never reached, or announced while the journal goes on past it, would make the kills the matrix plans there prove nothing.',
    asserts: ['the prepare stops at each announced prepare point', 'while held, the driver sends nothing and no file under the journal directory changes', 'while held at prepare.before-commit the effect is not visible to another driver', 'while held at prepare.after-commit it is'],
    async trial(t) {
      const a = await t.driver('primary');
      const b = await t.driver('rival');
      await failedIfNotHeld(t, a, () => holdPreparePoints(t, a, b));
    },
  }),
];

async function holdPreparePoints(t: TrialContext, a: JournalClient, b: JournalClient): Promise<void> {
  for (const point of ['prepare.before-commit', 'prepare.after-commit'].filter((p) => t.capabilities.crashPoints.includes(p))) {
    const runId = t.rng.id('run');
    const params = callPrepare(t, { kind: 'run', runId, nodeId: 'node-a', attempt: 1 });
    const visible = async () => (await rows(b)).filter((r) => r.scope.kind === 'run' && r.scope.runId === runId).length;
    await heldLook(t, a, 'prepare', params, point, visible, point.endsWith('before-commit') ? 0 : 1, 'rows of the effect another driver sees');
  }
}

async function outerProbeClaim(t: TrialContext, client: JournalClient): Promise<void> {
  const captured = await committedRows(t, client, t.rng.id('session'), 1);
  const got = await client.try('sessionSweep', { sessionId: captured[0]!.sessionId, captured, insideOuterTransaction: true });
  const finding = outerProbeClaimFinding(t.capabilities, got.ok ? { ok: true } : got);
  t.check(finding.name, finding.expected, finding.actual, finding.passed);
}

async function gateClaim(t: TrialContext, client: JournalClient, runId: string): Promise<void> {
  const finding = await gateClaimFinding(client, { kind: 'run', runId, nodeId: 'node-a' }, t.capabilities.tierMode);
  t.check(finding.name, finding.expected, finding.actual, finding.passed);
}
