// Identity and digest classes found by journals written from the spec alone: a tool id is matched exactly, and a public
// field whose name only contains a credential word still counts.
import { defineScenario, type Scenario } from '../../harness/scenario.js';
import { defaultPrepare, snapshotAfter, snapshotBefore } from '../support.js';
import { expectedDigest } from '../digest/persisted-form.js';
import { killAndRestart } from '../metamorphic-support.js';
import { DEFAULT_MAPPING, deriveProjections } from '../../harness/engine/projections.js';
import { proceeded } from '../../harness/engine/setup-verdict.js';
import type { OpParams } from '../../shared/protocol/schemas.js';

type Prepare = OpParams<'prepare'>;

// Tool ids a store folds into one when it makes a file name, a key or a slug of them: case, punctuation, separators,
// a trailing space, a doubled separator. MCP tool ids carry all of these, and each names another tool.
const TOOL = 'write_file';
// Long MCP ids (mcp__<server>__<tool>) that share their first 31 or 63 bytes: a store that keeps the id in a fixed
// buffer or a cut column takes each pair for one tool. 64 bytes is the longest tool name the common model APIs accept.
const LONG = 'mcp__enterprise_document_management__upload_files_to_workspace_';
const SIBLING_TOOLS = [
  'write-file', 'Write_File', 'WRITE_FILE', 'write.file', 'write/file', 'write:file', 'write file', 'write_file ', 'write__file', 'writefile',
  'mcp__github__create_pull_request_review', 'mcp__github__create_pull_request_comment', `${LONG}a`, `${LONG}b`,
];

// Ordinary public fields whose names merely contain a credential word (pass, secret, token, auth, key, cred, sig,
// cookie): no reading makes them credentials, so each contributes its complete value to identity (§11).
const PUBLIC: Record<string, unknown> = {
  method: 'POST', url: 'https://orders.invalid/api', author: 'ana', authored: true, keyword: 'crash', primaryKey: 'user#1', sortKey: 7, monkey: 'no',
  passengers: 2, compass: 'north', tokenizer: 'bpe', secretary: 'bo', signal: 'SIGTERM', design: 'flat', credit: 10, cookieConsent: false, keyboard: 'dvorak',
};
const CHANGED: Record<string, unknown> = {
  author: 'bea', authored: false, keyword: 'burn', primaryKey: 'user#2', sortKey: 8, monkey: 'yes', passengers: 3, compass: 'south', tokenizer: 'wordpiece',
  secretary: 'cy', signal: 'SIGKILL', design: 'round', credit: 11, cookieConsent: true, keyboard: 'qwerty',
};

export const blind3Identity: Scenario[] = [
  defineScenario({
    id: 'identity.tool-ids-exact',
    title: 'Tool ids that differ only in case, punctuation or spacing are different tools: each is a fresh identity at the same slot, and replays only its own result',
    spec: 'effect-journal §2 (EffectIdentity: scope without the attempt, slot and toolId), §4 ("answering it with the old answer would be a silent wrong result"), §5 (MCP tools)',
    tags: ['run', 'identity', 'replay'],
    needs: [],
    description:
      `A run node commits a ${TOOL} call at slot 0 with a retained result. The re-run's model calls, at the same slot, tools whose ids differ from it only in case, ` +
      'punctuation, separators or a trailing space, as MCP tool ids do (write-file, Write_File, write.file, write/file, write_file with a trailing space...), and long MCP ids that share their first 31 or 63 bytes. Each is another ' +
      'tool, so another EffectIdentity: its prepare proceeds, it is settled with its own result, and after a SIGKILL and a restart each prepare again replays its own result, ' +
      'never another tool\'s. A store that folds tool ids into one file name, key or slug answers one of them with the other\'s result, or refuses it as a duplicate.',
    asserts: [
      'the prepare of each sibling tool id proceeds as a fresh identity',
      'after a restart each tool id replays its own recorded result',
      'the gate lists one row per tool id',
    ],
    async trial(t) {
      let client = await t.driver();
      const runId = t.rng.id('run');
      const base: Prepare = { ...defaultPrepare(t, runId, 'node-a'), slot: 0, toolId: TOOL };
      const tools = [TOOL, ...SIBLING_TOOLS];
      const results = new Map(tools.map((tool) => [tool, deriveProjections('write_file', JSON.stringify({ tool }), DEFAULT_MAPPING)]));
      const again = (toolId: string): Prepare => ({ ...base, toolId, audit: { ...base.audit, callId: t.rng.id('call') } });
      const first = await client.op('prepare', base);
      await client.op('settle', { effectId: proceeded(first, `the ${TOOL} effect`), state: 'committed', result: results.get(TOOL)! });
      await snapshotBefore(t, client);
      for (const tool of SIBLING_TOOLS) {
        const v = await client.op('prepare', again(tool));
        t.expect(`prepare of ${JSON.stringify(tool)} at the slot where ${TOOL} committed: verdict`, 'proceed', v.verdict);
        if (v.verdict === 'proceed') await client.op('settle', { effectId: v.effectId, state: 'committed', result: results.get(tool)! });
      }
      client = await killAndRestart(t, client);
      for (const tool of tools) {
        const v = await client.op('prepare', again(tool));
        t.expect(`after the restart, prepare of ${JSON.stringify(tool)}: verdict and the result it re-delivers`, ['replay', results.get(tool)], [v.verdict, v.verdict === 'replay' ? v.result : null]);
      }
      const gate = await client.op('gate', { scope: { kind: 'run', runId, nodeId: 'node-a' }, attempt: 1 });
      t.expect('tool ids of the rows the gate lists', [...tools].sort(), gate.effects.map((e) => e.toolId).sort());
      await snapshotAfter(t, client);
    },
  }),
  defineScenario({
    id: 'digest.near-miss-credential-names-count',
    title: 'A public field whose name only contains a credential word (author, keyword, primaryKey, passengers, tokenizer) counts: changing it refuses the replay',
    spec: 'effect-journal §11 ("unrecognized public fields and ordinary arguments still contribute their complete surviving values to identity"; "a recognized structural credential key"), §4 (a changed argument refuses the replay)',
    tags: ['run', 'replay', 'digest', 'refusal'],
    needs: [],
    description:
      'A committed effect with a retained result ran with public arguments whose names contain pass, secret, token, auth, key, cred, sig or cookie without being a credential ' +
      '(author, keyword, primaryKey, sortKey, passengers, compass, tokenizer, secretary, signal, design, credit, cookieConsent, keyboard...). Its args digest must be the ' +
      'exact v5 digest of the arguments as they are, and the same identity prepared again with any one of those values changed is another question: refused, never ' +
      'replayed. A redactor that masks every key containing a credential word gives both calls one digest and answers the new question with the old result.',
    asserts: ['the recorded digest is the v5 digest of the arguments unmasked', 'each changed near-miss field refuses the replay', 'the unchanged call replays the recorded result'],
    async trial(t) {
      const client = await t.driver();
      const base: Prepare = { ...defaultPrepare(t, t.rng.id('run'), 'node-a'), args: { ...PUBLIC }, secretArgKeys: [] };
      const result = deriveProjections('http_request', '{"echo":"near-miss","tail":"END"}', DEFAULT_MAPPING);
      const v = await client.op('prepare', base);
      const effectId = proceeded(v, 'the committed effect');
      await client.op('settle', { effectId, state: 'committed', result });
      const before = await snapshotBefore(t, client);
      t.expect('argsDigest of the near-miss arguments', expectedDigest(PUBLIC, []), before.find((r) => r.effectId === effectId)?.argsDigest.toLowerCase() ?? null);
      const again = (p: Prepare): Prepare => ({ ...p, audit: { ...p.audit, callId: t.rng.id('call') } });
      for (const [key, value] of Object.entries(CHANGED)) {
        const answer = await client.op('prepare', again({ ...base, args: { ...base.args, [key]: value } }));
        t.expect(`${key} ${JSON.stringify(PUBLIC[key])} → ${JSON.stringify(value)}: prepare verdict`, 'refuse', answer.verdict);
      }
      const same = await client.op('prepare', again(base));
      t.expect('the unchanged call after the refusals: verdict and result', ['replay', result], [same.verdict, same.verdict === 'replay' ? same.result : null]);
      await snapshotAfter(t, client);
    },
  }),
];
