// The operations the write sweep kills inside, each with its setup and the invariant a kill anywhere in it must leave.
import { isDeepStrictEqual } from 'node:util';
import type { Need } from '../../harness/scenario.js';
import { defaultCall, defaultPrepare, isUnresolved, nodeRows, resultMarker, rows, scanCanaries } from '../support.js';
import { DEFAULT_MAPPING, deriveProjections } from '../../harness/engine/projections.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';
import type { CapturedRow, EffectRow, OpParams, RecordedResult } from '../../shared/protocol/schemas.js';
import { proceeded } from '../../harness/engine/setup-verdict.js';

export interface SweepCase<F = Fixture> {
  /** The scenario id's middle part. */
  readonly slug: string;
  readonly op: string;
  readonly scope: 'run' | 'session';
  readonly spec: string;
  readonly needs: readonly Need[];
  readonly setupText: string;
  readonly invariant: string;
  /** Set when the contract does not demand that the op write (a gate may decide without storing): why. Unset: no write fails. */
  readonly mayWriteNothing?: string;
  fixture(t: TrialContext): F;
  /** Everything before the swept operation; its result feeds `run`. */
  setup(client: JournalClient, fixture: F): Promise<unknown>;
  run(client: JournalClient, fixture: F, state: unknown): Promise<void>;
  check(t: TrialContext, client: JournalClient, fixture: F, label: string): Promise<void>;
}

export interface Fixture {
  readonly runId: string;
  readonly prepare: OpParams<'prepare'>;
  readonly result: RecordedResult;
  /** Captured rows the session sweep deletes: more than one chunk when the journal announces its chunk size. */
  readonly sessionRows: number;
}

const RESULT = deriveProjections('http_request', `{"echo":"${'x'.repeat(80)}","tail":"END"}`, DEFAULT_MAPPING);

function fixture(t: TrialContext): Fixture {
  const runId = t.rng.id('run');
  const chunk = t.capabilities.sweepChunkSize;
  return { runId, prepare: defaultPrepare(t, runId, 'node-a'), result: RESULT, sessionRows: chunk === undefined ? 3 : Math.max(3, chunk + 1) };
}

/** The terminal sweep's two committed results (node-a's, node-b's) carry a marker each, so the bytes they leave can be looked for. */
interface TerminalFixture extends Fixture {
  readonly markers: readonly [string, string];
  readonly results: readonly [RecordedResult, RecordedResult];
}

function terminalFixture(t: TrialContext): TerminalFixture {
  const f = fixture(t);
  const markers = [resultMarker(t), resultMarker(t)] as const;
  const results = markers.map((m) => deriveProjections('http_request', `{"echo":"${m}","tail":"END"}`, DEFAULT_MAPPING)) as [RecordedResult, RecordedResult];
  return { ...f, markers, results };
}

// §11 and protocol.md `open`: a restart's open checkpoints, erasing what an earlier sweep freed (with no other process
// on the journal nothing can defer it). A node's marker must be gone once its row is.
async function freedGoneAfterOpen(t: TrialContext, c: JournalClient, f: TerminalFixture, all: readonly EffectRow[], label: string): Promise<void> {
  const gone = f.markers.filter((_, i) => !all.some((r) => r.scope.kind === 'run' && r.scope.runId === f.runId && r.scope.nodeId === NODES[i] && r.state === 'committed'));
  if (gone.length === 0) return;
  const hits = await scanCanaries(t, c, gone);
  t.check(`${label}: copies of the swept results in the journal's files right after the restart's open`, 0, hits, hits === 0);
}

const NODES = ['node-a', 'node-b'] as const;

// The prepare sweep uses a tier-1 effect: only there must the row carry its idempotency key (§2).
function tier1Fixture(t: TrialContext): Fixture {
  const f = fixture(t);
  return { ...f, prepare: { ...f.prepare, tier: 1 } };
}

async function prepareAndSettle(client: JournalClient, params: OpParams<'prepare'>, result: RecordedResult): Promise<void> {
  const v = await client.op('prepare', params);
  await client.op('settle', { effectId: proceeded(v, 'a setup effect'), state: 'committed', result });
}

async function gateOf(t: TrialContext, client: JournalClient, f: Fixture, nodeId = 'node-a') {
  return client.op('gate', { scope: { kind: 'run', runId: f.runId, nodeId }, attempt: 1 });
}

const SID = 'sess-sweep-writes';

export const SWEEP_CASES: readonly SweepCase[] = [
  {
    slug: 'prepare',
    op: 'prepare',
    scope: 'run',
    spec: 'effect-journal §12.1, §6, §7 step 2',
    needs: [],
    setupText: 'A fresh journal prepares a tier-1 effect (the one tier whose row must carry its idempotency key).',
    invariant: 'afterwards there is no row and the gate passes, or one unresolved row that carries its idempotency key and the gate does not pass',
    fixture: tier1Fixture,
    setup: async () => null,
    run: async (c, f) => void (await c.op('prepare', f.prepare)),
    async check(t, c, f, label) {
      const left = nodeRows(await rows(c), f.runId, 'node-a');
      const gate = await gateOf(t, c, f);
      const clean = left.length === 0 && gate.decision === 'pass';
      // Refused (conservative) or sent to reconciliation (tier 1 in a reconciling journal): never waved through.
      const kept = left.length === 1 && isUnresolved(left[0]) && left[0]?.idempotencyKey !== null && gate.decision !== 'pass';
      t.check(label, 'no row and gate pass, or one unresolved keyed row and gate not pass', { rows: left.map((r) => [r.state, r.idempotencyKey !== null]), gate: gate.decision }, clean || kept);
    },
  },
  {
    slug: 'settle',
    op: 'settle',
    scope: 'run',
    spec: 'effect-journal §12.3–4, §6, §7 step 4',
    needs: [],
    setupText: 'A fresh journal prepares the default tier-3 effect, then settles it committed with a result.',
    invariant: 'afterwards the row is still prepared and the gate refuses, or it is committed with the complete recorded result and the re-run replays it verbatim',
    fixture,
    async setup(c, f) {
      const v = await c.op('prepare', f.prepare);
      return proceeded(v, 'the effect whose writes are swept');
    },
    run: async (c, f, effectId) => void (await c.op('settle', { effectId: String(effectId), state: 'committed', result: f.result })),
    async check(t, c, f, label) {
      const left = nodeRows(await rows(c), f.runId, 'node-a');
      const gate = await gateOf(t, c, f);
      const row = left[0];
      let replayed: unknown = null;
      if (row?.state === 'committed' && gate.decision === 'pass') {
        const again = await c.op('prepare', f.prepare);
        replayed = again.verdict === 'replay' ? again.result : again.verdict;
      }
      const stillPrepared = left.length === 1 && isUnresolved(row) && gate.decision === 'refuse';
      const committedWhole = left.length === 1 && row?.state === 'committed' && isDeepStrictEqual(replayed, f.result);
      t.check(label, 'still prepared and gate refuse, or committed with the whole result replayed', { rows: left.map((r) => [r.state, r.resultRetained]), gate: gate.decision, replayed: replayed !== null }, stillPrepared || committedWhole);
    },
  },
  {
    slug: 'run-terminal',
    op: 'runTerminal',
    scope: 'run',
    spec: 'effect-journal §12.11, §9, §11',
    needs: [],
    setupText: 'Two nodes of one run each commit an effect and a third leaves one unresolved; then the run reaches its terminal and its committed rows are swept.',
    // §9 says when a run's committed rows go, not that they go in one transaction (only the session sweep's
    // chunks "commit together"): a run past its terminal is never resumed, so a torn sweep leaves only
    // rows the repeated sweep removes. The unresolved row is what must survive.
    invariant: 'afterwards the unresolved row remains and a repeated terminal sweep leaves no committed row (a torn sweep may leave some); once a checkpoint answers complete, no file holds the swept results',
    fixture: terminalFixture,
    async setup(c, f) {
      const { results } = f as TerminalFixture;
      await prepareAndSettle(c, f.prepare, results[0]);
      await prepareAndSettle(c, { ...f.prepare, correlation: { kind: 'run', runId: f.runId, nodeId: 'node-b', attempt: 1 } }, results[1]);
      await c.op('prepare', { ...f.prepare, correlation: { kind: 'run', runId: f.runId, nodeId: 'node-c', attempt: 1 } });
      return null;
    },
    run: async (c, f) => void (await c.op('runTerminal', { runId: f.runId })),
    async check(t, c, f, label) {
      const all = (await rows(c)).filter((r) => r.scope.kind === 'run' && r.scope.runId === f.runId);
      await freedGoneAfterOpen(t, c, f as TerminalFixture, all, label);
      const committed = all.filter((r) => r.state === 'committed').length;
      const unresolved = all.filter((r) => isUnresolved(r)).length;
      await c.op('runTerminal', { runId: f.runId });
      const again = (await rows(c)).filter((r) => r.scope.kind === 'run' && r.scope.runId === f.runId);
      const actual = { committed, unresolved, afterRepeat: { committed: again.filter((r) => r.state === 'committed').length, unresolved: again.filter((r) => isUnresolved(r)).length } };
      const held = committed <= 2 && unresolved === 1 && actual.afterRepeat.committed === 0 && actual.afterRepeat.unresolved === 1;
      t.check(label, 'committed rows 2, 1 or 0 and unresolved 1; after a repeated sweep committed 0, unresolved 1', actual, held);
      // §11: bytes a sweep freed survive no successful checkpoint, a sweep torn by the kill included (its open and the
      // repeated sweep retry what it left); a deferred checkpoint promises nothing yet.
      const { markers } = f as TerminalFixture;
      const { checkpoint } = await c.op('checkpoint', {});
      if (checkpoint !== 'complete') return;
      const hits = await scanCanaries(t, c, markers);
      t.check(`${label}: copies of the swept results in the journal's files after a complete checkpoint`, 0, hits, hits === 0);
    },
  },
  {
    slug: 'session-sweep',
    op: 'sessionSweep',
    scope: 'session',
    spec: 'effect-journal §12.11, §9 ("all chunks commit together")',
    needs: ['sessions'],
    setupText: 'Session turns each commit an effect (one more than the journal\'s announced sweep chunk size, at least three) and a last one leaves an effect unresolved; the disclosure read captures the committed rows, which the sweep then deletes.',
    invariant: 'afterwards all captured rows remain or none does, and the unresolved row always remains',
    fixture,
    async setup(c, f) {
      for (let turn = 0; turn < f.sessionRows; turn += 1) await prepareAndSettle(c, sessionPrepare(f, turn), f.result);
      await c.op('prepare', sessionPrepare(f, f.sessionRows));
      return (await c.op('sessionRead', { sessionId: SID, transcript: [] })).captured;
    },
    run: async (c, _f, captured) => void (await c.op('sessionSweep', { sessionId: SID, captured: captured as CapturedRow[] })),
    async check(t, c, f, label) {
      const all = (await rows(c)).filter((r) => r.scope.kind === 'session' && r.scope.sessionId === SID);
      const committed = all.filter((r) => r.state === 'committed').length;
      const unresolved = all.filter((r) => isUnresolved(r)).length;
      t.check(label, `committed rows ${f.sessionRows} or 0, unresolved 1`, { committed, unresolved }, (committed === f.sessionRows || committed === 0) && unresolved === 1);
    },
  },
];

function sessionPrepare(f: Fixture, turn: number): OpParams<'prepare'> {
  const call = defaultCall();
  const { outputMappingConfig: _runOnly, ...rest } = f.prepare;
  return { ...rest, correlation: { kind: 'session', sessionId: SID, turn }, slot: call.slot };
}
