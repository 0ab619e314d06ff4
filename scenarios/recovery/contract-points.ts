// Contract points observed outside a crash: exact scope matching, settle errors, and operator resolution (§4, §6, §8).
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { defaultCall, defaultPrepare, rows, runEffectKey, snapshotAfter, snapshotBefore } from '../support.js';
import type { EffectRow } from '../../shared/protocol/schemas.js';
import { resumeRun, startRun } from '../../harness/engine/run-engine.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import { proceeded } from '../../harness/engine/setup-verdict.js';

export const journalContract: Scenario[] = [
  defineScenario({
    id: 'identity.scope-exact',
    title: 'Scopes never cross: r1 vs r10, and ids holding %, _ and :',
    spec: 'effect-journal §2, §4',
    tags: ['run', 'gate', 'identity'],
    needs: [],
    description: 'Unresolved rows are left in runs whose ids are prefixes of, or LIKE/glob patterns for, other runs; the gate of each neighbour must see nothing of them.',
    asserts: ['the gate of r10, r%, r_ and r:1 passes with no effects while r1 holds an unresolved row', 'the gate of r1 refuses'],
    async trial(t) {
      const client = await t.driver();
      await prepareUnresolved(t, client, 'r1', 'n');
      await prepareUnresolved(t, client, 'a:b', 'c');
      await snapshotBefore(t, client);
      for (const runId of ['r10', 'r%', 'r_', 'r', 'r:1', 'a', 'a:b:c']) {
        const gate = await client.op('gate', { scope: { kind: 'run', runId, nodeId: 'n' }, attempt: 1 });
        t.expect(`gate of ${runId}/n`, { decision: 'pass', effects: 0 }, { decision: gate.decision, effects: gate.effects.length });
      }
      const own = await client.op('gate', { scope: { kind: 'run', runId: 'r1', nodeId: 'n' }, attempt: 1 });
      t.expect('gate of r1/n', 'refuse', own.decision);
      const other = await client.op('gate', { scope: { kind: 'run', runId: 'a', nodeId: 'b:c' }, attempt: 1 });
      t.expect('gate of a / b:c (same concatenation as a:b / c)', 0, other.effects.length);
      await snapshotAfter(t, client);
    },
  }),
  defineScenario({
    id: 'gate.ignores-attempt',
    title: 'The gate finds rows of an earlier node-retry attempt (the lookup drops the attempt)',
    spec: 'effect-journal §4 ("the lookup key is the correlation with attempt dropped")',
    tags: ['run', 'gate', 'identity'],
    needs: [],
    description: 'The original execution ran at node attempt 2 and left an unresolved row; the resume resets the attempt to 1 and must still find it.',
    asserts: ['the gate refuses', 'nothing is re-executed'],
    async trial(t) {
      const run = { runId: t.rng.id('run'), nodes: [{ nodeId: 'node-a', calls: [defaultCall()], originalAttempt: 2, timeoutSlots: [0] }] };
      const first = await t.driver();
      await startRun(t, first, run);
      const gate = await first.op('gate', { scope: { kind: 'run', runId: run.runId, nodeId: 'node-a' }, attempt: 1 });
      t.expect('gate decision at attempt 1', 'refuse', gate.decision);
      t.expect('physical writes', 1, t.world.counts().physicalWrites);
      await snapshotAfter(t, first);
    },
  }),
  defineScenario({
    id: 'gate.read-failure-refuses',
    title: 'A gate read that fails is a refusal, not a pass',
    spec: 'effect-journal §4 ("a gate read that fails is a refusal")',
    tags: ['run', 'gate', 'fault'],
    needs: ['fault:gate_read_fails'],
    description: 'A node left an unresolved row; the gate read is made to fail; resuming must refuse, and must not run the node.',
    asserts: ['the gate refuses with gate_read_failed', 'nothing is re-executed'],
    async trial(t) {
      const run = { runId: t.rng.id('run'), nodes: [{ nodeId: 'node-a', calls: [defaultCall()] }] };
      const client = await t.driver();
      await client.op('fault', { fault: 'gate_read_fails', enabled: true });
      const out = await resumeRun(t, client, run);
      t.expect('gate decision', 'refuse', out.gates[0]?.decision);
      t.expect('refusal code', 'gate_read_failed', out.gates[0]?.refusal?.code);
      t.expect('prepares', 0, out.verdicts.length);
      t.expect('physical writes', 0, t.world.counts().physicalWrites);
      await client.op('fault', { fault: 'gate_read_fails', enabled: false });
      await snapshotAfter(t, client);
    },
  }),
  defineScenario({
    id: 'recovery.settle-errors',
    title: 'A settle that changes no row, or moves a settled row, is an error with a code',
    spec: 'effect-journal §6',
    tags: ['run', 'state-machine'],
    needs: [],
    description: 'Settle an id that does not exist, then settle a committed row a second time.',
    asserts: ['unknown id → settle_no_row', 'second settle → settle_already_settled', 'the committed row is unchanged'],
    async trial(t) {
      const client = await t.driver();
      const id = await prepareUnresolved(t, client, t.rng.id('run'), 'n');
      const none = await client.try('settle', { effectId: '987654321', state: 'ambiguous', reason: 'x' });
      t.expect('settle of an unknown id', 'settle_no_row', none.ok ? 'ok' : none.code);
      await client.op('settle', { effectId: id, state: 'committed', result: { modelValue: 'v', truncated: false, summary: 's', outputMappingResult: 1 } });
      const again = await client.try('settle', { effectId: id, state: 'ambiguous', reason: 'late' });
      t.expect('second settle', 'settle_already_settled', again.ok ? 'ok' : again.code);
      t.expect('state after the refused second settle', 'committed', (await rows(client)).find((r) => r.effectId === id)?.state);
      await snapshotAfter(t, client);
    },
  }),
  defineScenario({
    id: 'recovery.operator-resolution',
    title: 'An operator resolves unresolved rows as accepted or discarded, with actor and time; a discarded node runs once more',
    spec: 'effect-journal §6, §8 (operator resolution: a named follow-up, claimed with capabilities.resolution)',
    tags: ['run', 'state-machine', 'gate'],
    needs: ['resolution'],
    description:
      'Two nodes each left a prepared tier-3 effect that never reached its target; the gate refuses both. An operator resolves one accepted (the effect landed) and one discarded (it did not). Each records its actor and the time of the resolve call (within 2 s: the journal\'s clock is the harness\'s), and after a restart both are still recorded; the discarded node then runs once more, the accepted one never re-executes. Whether the journal reuses the discarded row or keeps it beside a new one is its choice.',
    asserts: ['both gates refuse before the resolution', 'each resolution records its decision, actor and the time of the resolve call, durably', 'the discarded node runs again: its prepare proceeds and the target sees exactly one write', 'the accepted effect is never dispatched again', 'no duplicate writes', 'resolving a committed row is refused'],
    async trial(t) {
      const client = await t.driver();
      const runId = t.rng.id('run');
      const a = await prepareUnresolved(t, client, runId, 'na');
      const b = await prepareUnresolved(t, client, runId, 'nb');
      for (const nodeId of ['na', 'nb']) t.expect(`gate of ${nodeId} before the resolution`, 'refuse', (await client.op('gate', { scope: { kind: 'run', runId, nodeId }, attempt: 1 })).decision);
      const committed = await prepareUnresolved(t, client, runId, 'nc');
      await client.op('settle', { effectId: committed, state: 'committed', result: null });
      const refused = await client.try('resolve', { effectId: committed, decision: 'accepted', actor: 'operator@example' });
      t.expect('resolving a committed row', 'resolve_invalid', refused.ok ? 'ok' : refused.code);
      const during = { from: Date.now() };
      const ra = await client.op('resolve', { effectId: a, decision: 'accepted', actor: 'operator@example' });
      const rb = await client.op('resolve', { effectId: b, decision: 'discarded', actor: 'operator@example' });
      const call = { ...during, to: Date.now() };
      const resolutionOf = (row: EffectRow | undefined) => resolutionIn(row, call);
      t.expect('recorded resolutions', ['accepted:operator@example:time', 'discarded:operator@example:time'], [ra, rb].map(resolutionOf));
      await snapshotBefore(t, client);
      await client.close();
      const fresh = await t.driver();
      const listed = (await fresh.op('listEffects', {})).effects;
      t.expect('resolutions after a restart', ['accepted:operator@example:time', 'discarded:operator@example:time'], [a, b].map((id) => resolutionOf(listed.find((r) => r.effectId === id))));
      // One resume of the run, both nodes in it: a run resumed again after its terminal is no run the contract knows
      // (§9: its terminal sweep may take the resolved rows too, and a later gate of an empty node passes).
      const run = { runId, nodes: ['nb', 'na'].map((nodeId) => ({ nodeId, calls: [defaultCall()] })) };
      const rerun = await resumeRun(t, fresh, run);
      t.expect('prepare of the discarded node', 'proceed', rerun.verdicts.find((v) => v.nodeId === 'nb')?.verdict.verdict);
      t.expect('the discarded node completed', true, t.log.completedNodes(runId).has('nb'));
      t.expect('writes of the discarded node', 1, t.world.writesFor(runEffectKey(run, 'nb', defaultCall())));
      t.expect('writes of the accepted node', 0, t.world.writesFor(runEffectKey(run, 'na', defaultCall())));
      t.expect('duplicate writes', 0, t.world.counts().duplicateWrites);
      await snapshotAfter(t, fresh);
    },
  }),
];

/** How far a recorded resolution time may lie outside the resolve call: a clock kept in whole seconds, a coarse timer. */
export const RESOLUTION_SLACK_MS = 2000;

// `decision:actor:time`, where time says the timestamp parses and falls within the resolve call (its value differs run
// to run): the journal's clock is the harness's, so a time in seconds read as milliseconds, the prepare's time or a
// constant is not the time of the resolution.
export function resolutionIn(row: EffectRow | undefined, call: { from: number; to: number }): string {
  const r = row?.resolution;
  if (!r) return 'no resolution';
  const at = timeOf(r.at);
  const when = !Number.isFinite(at) ? `unparseable time ${JSON.stringify(r.at)}` : at < call.from - RESOLUTION_SLACK_MS ? 'a time before the resolve call' : at > call.to + RESOLUTION_SLACK_MS ? 'a time after the resolve call' : 'time';
  return `${r.decision}:${r.actor}:${when}`;
}

/**
 * A resolution time in ms: ISO 8601 (with its zone), or a Unix time as a decimal string, in seconds (ten digits, a
 * fraction allowed) or milliseconds (thirteen). §8 asks for "a timestamp" and names no form; protocol.md lists these.
 */
export function timeOf(at: string): number {
  if (/^\d{10}(\.\d+)?$/.test(at)) return Number(at) * 1000;
  if (/^\d{13}$/.test(at)) return Number(at);
  return isoTime(at) ?? Date.parse(at);
}

// ISO 8601 date and time with a zone, extended (2026-12-06T07:45:35.530+05:45) or basic (20261206T074535,530+0545), the
// fraction after a full stop or a comma: Date.parse reads only the extended form with a full stop.
const ISO_EXTENDED = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)$/;
const ISO_BASIC = /^(\d{4})(\d{2})(\d{2})[Tt](\d{2})(\d{2})(?:(\d{2})(?:[.,](\d+))?)?([Zz]|[+-]\d{2}(?:\d{2})?)$/;

function isoTime(at: string): number | null {
  const m = ISO_EXTENDED.exec(at) ?? ISO_BASIC.exec(at);
  if (m === null) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const ms = frac === undefined ? 0 : Number(`0.${frac}`) * 1000;
  const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0)) + ms;
  if (zone === 'Z' || zone === 'z') return local;
  const digits = zone!.slice(1).replace(':', '');
  const offset = (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0)) * 60_000;
  return zone!.startsWith('+') ? local - offset : local + offset;
}

async function prepareUnresolved(t: TrialContext, client: JournalClient, runId: string, nodeId: string): Promise<string> {
  const verdict = await client.op('prepare', defaultPrepare(t, runId, nodeId));
  return proceeded(verdict, `the setup effect of ${runId}/${nodeId}`);
}
