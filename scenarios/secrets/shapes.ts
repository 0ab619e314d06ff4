// §11 and §14 beyond one shape: a credential-only change replays in every shape §11 masks (header casing, userinfo,
// percent-encoded tokens, depth, argv), and no path a row takes (ambiguous, needs attention, resolved) writes one.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { callPrepare, canary, defaultCall, scanCanaries, singleNodeRun, snapshotAfter, snapshotBefore } from '../support.js';
import { DEFAULT_MAPPING, deriveProjections } from '../../harness/engine/projections.js';
import { resumeRun, startRun } from '../../harness/engine/run-engine.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';

const SPEC_SHAPES = 'effect-journal §11 (credential keys masked before traversal, userinfo through the last @, opaque query values through their delimiter), §14 ("credential-only changes deliberately do not distinguish redacted digests"), §4';

/** One credential shape: arguments holding `secret` where §11 masks it, and `pub` a public value beside it that counts. */
interface Shape {
  readonly name: string;
  readonly args: (secret: string, pub: string) => Record<string, unknown>;
}

// Every secret sits where the contract requires a mask whatever the key's casing, encoding or depth, under a name every
// recognizer knows (which names are recognized is the journal's choice, §11 "a finite shape detector"; their casing,
// encoding and depth are not); every public value sits where it must survive (host, path, another header, a sibling flag).
export const SHAPES: readonly Shape[] = [
  { name: 'capitalised Authorization header', args: (s, p) => ({ headers: { Authorization: s, Accept: `application/${p}` } }) },
  { name: 'upper-case AUTHORIZATION header', args: (s, p) => ({ headers: { AUTHORIZATION: s, HOST: `${p}.invalid` } }) },
  { name: 'dashed, capitalised Api-Key header', args: (s, p) => ({ headers: { 'Api-Key': s, 'Content-Type': `application/${p}` } }) },
  { name: 'lower-case bearer scheme', args: (s, p) => ({ header: `bearer ${s}`, path: `/${p}` }) },
  { name: 'token-only URL userinfo', args: (s, p) => ({ url: `https://${s}@git.invalid/team/${p}.git` }) },
  { name: 'percent-encoded userinfo password', args: (s, p) => ({ url: `https://deploy:p%40ss%2F${s}@registry.invalid/v2/${p}` }) },
  { name: 'percent-escaped access_token query value', args: (s, p) => ({ url: `https://api.invalid/v1/${p}?access_token=Zm9v%2B${s}%3D&page=2` }) },
  { name: 'credential key six levels deep', args: (s, p) => ({ request: { batch: [{ steps: [{ call: { params: { password: s, user: p } } }] }] } }) },
  { name: 'credential flag in an argument vector', args: (s, p) => ({ argv: ['deploy', '--api-key', s, '--region', p] }) },
];

export const secretShapes: Scenario[] = [
  defineScenario({
    id: 'secrets.credential-only-change.shapes',
    title: 'A credential-only change replays in every shape §11 masks; a public change beside it refuses',
    spec: SPEC_SHAPES,
    tags: ['secrets', 'digest', 'run', 'byte-scan'],
    needs: [],
    description:
      `One committed tier-3 effect per shape (${SHAPES.map((s) => s.name).join('; ')}), each holding a canary where §11 masks it. ` +
      'A restarted driver is asked the same call with only the canary changed: the redacted projection is the same, so it must replay (a digest that moved is a credential equality oracle). ' +
      'Asked with the public value beside the credential changed instead, it must refuse (the mask must not swallow public data). The credential-only call prepared as a fresh identity must store the same digest as the first. Every file under the journal directory is scanned for all the canaries, in every form.',
    asserts: ['each shape: the credential-only change replays', 'each shape: the public change beside it refuses', 'each shape: two calls differing only in the credential store equal digests', 'zero canary hits in the journal directory', 'the scans read real bytes'],
    async trial(t) {
      const runId = t.rng.id('run');
      const first = await t.driver();
      const planted: string[] = [];
      const ids: string[] = [];
      for (const [i, shape] of SHAPES.entries()) {
        const secret = canary(t);
        planted.push(secret);
        const verdict = await first.op('prepare', prepareOf(t, runId, i, shape.args(secret, 'v1')));
        if (!t.check(`${shape.name}: the first prepare of a fresh identity proceeds`, 'proceed', verdict.verdict, verdict.verdict === 'proceed')) return;
        if (verdict.verdict !== 'proceed') return;
        ids.push(verdict.effectId);
        await first.op('settle', { effectId: verdict.effectId, state: 'committed', result: deriveProjections('http_request', `ok ${i}`, DEFAULT_MAPPING) });
      }
      await first.close();
      const next = await t.driver();
      await snapshotBefore(t, next);
      const pairs: Array<[string, string, string]> = [];
      for (const [i, shape] of SHAPES.entries()) {
        const rotated = canary(t);
        planted.push(rotated);
        const again = await next.op('prepare', prepareOf(t, runId, i, shape.args(rotated, 'v1')));
        t.expect(`${shape.name}: a credential-only change replays`, 'replay', again.verdict === 'refuse' ? `refuse:${again.code}` : again.verdict);
        const changed = await next.op('prepare', prepareOf(t, runId, i, shape.args(rotated, 'v2')));
        t.expect(`${shape.name}: a change of the public value beside it refuses`, 'refuse', changed.verdict);
        // The same rotated call as a fresh identity: its stored digest must equal the first one's (no equality oracle).
        const fresh = await next.op('prepare', prepareOf(t, runId, i, shape.args(rotated, 'v1'), 'b'));
        if (fresh.verdict === 'proceed') pairs.push([shape.name, ids[i]!, fresh.effectId]);
      }
      const listed = new Map((await next.op('listEffects', {})).effects.map((r) => [r.effectId, r.argsDigest]));
      t.expect('shapes whose stored digest differs between two calls that differ only in the credential', [], pairs.filter(([, a, b]) => listed.get(a) !== listed.get(b)).map(([name]) => name));
      t.expect('fresh identities for the credential-only calls', SHAPES.length, pairs.length);
      t.expect('canary hits in the journal directory (any form)', 0, await scanCanaries(t, next, planted));
      t.check('bytes scanned', '> 0', t.tally.bytesScanned, t.tally.bytesScanned > 0);
      const after = await snapshotAfter(t, next);
      t.expect('the committed rows are all still there', ids, ids.filter((id) => after.some((r) => r.effectId === id)));
    },
  }),
  defineScenario({
    id: 'secrets.unresolved-never-on-disk',
    title: 'No secret reaches the files on the paths an effect takes when it does not commit: ambiguous, refused at the gate, resolved',
    spec: 'effect-journal §11 ("a journal row never stores argument bytes"), §6, §8 (needs_attention is surfaced; the resolution is written to the row)',
    tags: ['secrets', 'byte-scan', 'run', 'attention'],
    needs: [],
    description:
      'The canary call of secrets.args-never-on-disk (a declared secret, a Bearer credential, URL userinfo and a credential query parameter) goes to a target that never answers, so the engine settles it ambiguous with a reason and the run fails needing attention. ' +
      'Every file under the journal directory is scanned after the ambiguous settle, after a restarted driver\'s gate refused the node, and (where the journal offers operator resolution) after the row is resolved as discarded: a note, an error or a reason a journal writes on these paths may not quote the arguments.',
    asserts: ['the run fails needing attention', 'the gate refuses the node after a restart', 'zero canary hits after the ambiguous settle, after the gate and after a resolution'],
    async trial(t) {
      const [secret, bearer, userinfo, query] = [canary(t), canary(t), canary(t), canary(t)];
      const call = defaultCall({ canary: secret, args: { ...defaultCall({ canary: secret }).args, auth: `Bearer ${bearer}`, url: `https://svc:${userinfo}@payments.invalid/charge?access_token=${query}&x=1` } });
      const run = singleNodeRun(t, { calls: [call], timeoutSlots: [0] });
      const all = [secret, bearer, userinfo, query];
      const client = await t.driver();
      const out = await startRun(t, client, run);
      t.expect('run error code', 'effect_needs_attention', out.errorCode);
      t.expect('canary hits after the ambiguous settle', 0, await scanCanaries(t, client, all));
      await client.close();
      const next = await t.driver();
      await snapshotBefore(t, next);
      const resumed = await resumeRun(t, next, run);
      t.expect('gate decision after a restart', 'refuse', resumed.gates[0]?.decision ?? 'no gate');
      t.expect('canary hits after the gate refused', 0, await scanCanaries(t, next, all));
      const row = (await next.op('listEffects', {})).effects.find((r) => r.scope.kind === 'run' && r.scope.runId === run.runId);
      if (t.capabilities.resolution === true && row !== undefined) {
        await next.op('resolve', { effectId: row.effectId, decision: 'discarded', actor: 'operator-ejc' });
        t.expect('canary hits after the operator resolution', 0, await scanCanaries(t, next, all));
      }
      await snapshotAfter(t, next);
    },
  }),
];

// The prepare of shape i's call: its own node of one run, tier 3, nothing declared secret (the shape must be recognised).
function prepareOf(t: TrialContext, runId: string, i: number, args: Record<string, unknown>, node = 'a') {
  const call = defaultCall({ args: { method: 'POST', amount: 42, ...args }, secretArgKeys: [] });
  return { ...callPrepare(t, { kind: 'run', runId, nodeId: `node-${i}-${node}`, attempt: 1 }, call), outputMappingConfig: { ...DEFAULT_MAPPING } };
}
