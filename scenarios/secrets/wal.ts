// §11: secret argument bytes never reach the database files; freed result bytes leave main file and WAL after a checkpoint.
import { defineScenario, type Need, type Scenario } from '../../harness/scenario.js';
import { canary, crashDuringRun, defaultCall, scanCanaries, singleNodeRun, snapshotAfter, snapshotBefore } from '../support.js';
import { statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { resumeRun, startRun } from '../../harness/engine/run-engine.js';
import type { RunScript } from '../../harness/engine/model.js';
import type { SeedRow } from '../../shared/protocol/schemas.js';
import { underStrace } from '../../harness/engine/syscall-sweep.js';
import { isInside, scanForCanaries } from '../../harness/world/byte-scan.js';
import { FILE_SYSCALLS, readTraceLines, writtenPaths } from '../../harness/world/written-files.js';
import { scanEncodedForms } from '../../harness/world/held-canaries.js';
import { scanHiddenCopies } from '../../harness/secrets/hidden-copies.js';
import { unmarkedSecret } from '../../shared/secrets/canary-nonce.js';
import { resumeSession } from '../../harness/engine/session-engine.js';
import type { TrialContext } from '../../harness/engine/trial-context.js';
import type { JournalClient } from '../../harness/engine/journal-client.js';

const SID = 'sess-secret';

/** A legacy session row as an older writer left it: its state and slot (a negative slot is a `!` command). */
interface LegacyKind {
  readonly state: SeedRow['state'];
  readonly slot: number;
}

// §11: the open "clears every legacy session result, including unresolved, orphan and one-shot rows" (every row here is
// an orphan: no transcript names its call).
const LEGACY_KINDS: readonly LegacyKind[] = [
  { state: 'committed', slot: 0 },
  { state: 'prepared', slot: 1 },
  { state: 'ambiguous', slot: 2 },
  { state: 'needs_attention', slot: 3 },
  { state: 'committed', slot: -1 },
];

export const secrets: Scenario[] = [
  defineScenario({
    id: 'secrets.args-never-on-disk',
    title: 'Secret and credential-shaped argument bytes never reach the main file or the WAL',
    spec: 'effect-journal §11',
    tags: ['secrets', 'byte-scan', 'run'],
    needs: [],
    description: 'Canaries ride in a declared secret argument, a Bearer credential, URL userinfo and a credential query parameter. Every file under the journal\'s directory (whatever it lists) and every file it lists is scanned whole after the kill (as the crash left them), after the replay and after the run terminal.',
    asserts: ['zero canary hits in every scan', 'the scans read real bytes'],
    async trial(t) {
      const { run, all } = canaryRun(t);
      await crashDuringRun(t, run, { kind: 'boundary', boundary: 'after-settle' });
      const client = await t.driver();
      await snapshotBefore(t, client);
      t.expect('canary hits after the kill', 0, await scanCanaries(t, client, all));
      await resumeRun(t, client, run);
      t.expect('canary hits after the replay and terminal', 0, await scanCanaries(t, client, all));
      t.check('bytes scanned', '> 0', t.tally.bytesScanned, t.tally.bytesScanned > 0);
      await snapshotAfter(t, client);
    },
  }),
  defineScenario({
    id: 'secrets.unmarked-args-never-on-disk',
    title: 'Secrets with nothing of the harness in them never reach the journal\'s files or any file a driver writes',
    spec: 'effect-journal §11',
    tags: ['secrets', 'byte-scan', 'run'],
    needs: [],
    description:
      'The canary run of secrets.args-never-on-disk with secrets shaped like real credentials (a Stripe live key, GitHub, GitLab and Slack tokens: a prefix, the trial\'s nonce, seeded characters) instead of EJC-CANARY- strings, in the same four places. ' +
      'Every canary of the other scenarios has one recognisable shape; a journal that spares strings of that shape and keeps everything else (an argument log "scrubbed of test data") passes their scans while keeping its users\' credentials. These it keeps. Scanned as there, and by the world scan.',
    asserts: ['zero secret hits in every scan', 'the scans read real bytes'],
    async trial(t) {
      const { run, all } = canaryRun(t, (i) => t.secret(unmarkedSecret(`${t.rng.next().toString(36).slice(2)}${t.rng.next().toString(36).slice(2)}`, t.canaryNonce, i)));
      await crashDuringRun(t, run, { kind: 'boundary', boundary: 'after-settle' });
      const client = await t.driver();
      await snapshotBefore(t, client);
      t.expect('unmarked secret hits after the kill', 0, await scanCanaries(t, client, all));
      await resumeRun(t, client, run);
      t.expect('unmarked secret hits after the replay and terminal', 0, await scanCanaries(t, client, all));
      t.check('bytes scanned', '> 0', t.tally.bytesScanned, t.tally.bytesScanned > 0);
      await snapshotAfter(t, client);
    },
  }),
  defineScenario({
    id: 'secrets.args-never-in-written-files',
    title: 'Secret argument bytes reach no file the driver writes, inside or outside its journal directory',
    spec: 'effect-journal §11',
    tags: ['secrets', 'byte-scan', 'run', 'strace'],
    needs: ['harness:strace'],
    description:
      'The canary run of secrets.args-never-on-disk, with the driver under strace recording every file it opens for writing, creates, renames or links into place. ' +
      'Every file under the journal directory and every written file outside it is scanned whole; the outside files are recorded as evidence in sections.writtenFiles.',
    asserts: ['zero canary hits in the journal directory', 'zero canary hits in every file the driver wrote outside its journal directory'],
    async trial(t) {
      const { run, all } = canaryRun(t);
      const log = t.harnessFile(join(t.dir, 'written-files.strace'));
      const client = await t.driver('traced', { launch: underStrace(t.launch, { log, trace: FILE_SYSCALLS, decodeFds: true }) });
      await startRun(t, client, run);
      await snapshotAfter(t, client);
      t.expect('canary hits in the journal directory after the run terminal', 0, await scanCanaries(t, client, all));
      const journalDir = client.journalDir;
      // strace finishes its log when the traced driver exits.
      await client.close();
      const written = writtenPaths(readTraceLines(log), process.cwd());
      const outside = written.filter((p) => !isInside(p, journalDir) && isRegularFile(p));
      if (!written.some((p) => isInside(p, journalDir)) && outside.length === 0) {
        t.inconclusiveReason = 'strace saw the driver write no file at all, not even in its journal directory: the trace failed or the journal keeps no files';
        return;
      }
      const scan = scanForCanaries(outside, all);
      // Re-encoded, compressed or split copies count too, once per canary and file (as in the journal directory).
      const copies = new Set([...scan.hits, ...scanEncodedForms(outside, all), ...scanHiddenCopies(outside, all)].map((h) => `${h.file}\0${h.canarySha256}`));
      t.tally.bytesScanned += scan.bytesScanned;
      t.tally.canaryHits += copies.size;
      t.expect('canary hits in files the driver wrote outside its journal directory', 0, copies.size);
      t.sections['writtenFiles'] = {
        insideJournalDir: written.filter((p) => isInside(p, journalDir)).map((p) => relative(journalDir, p)).sort(),
        outsideJournalDir: scan.files.map((f) => ({ path: placeholderPath(f.file, t.dir), bytes: f.bytes })),
      };
    },
  }),
  withLegacyCanary('secrets.legacy-result-cleared-on-open', 'Every legacy session result, an unresolved or negative-slot row\'s too, is cleared and checkpointed on open', [], async (t, tokens, first) => {
    await first.close();
    const client = await t.driver();
    t.expect('canary hits after the open-time clear, connection open', 0, await scanCanaries(t, client, tokens));
    return client;
  }, LEGACY_KINDS, true),
  withLegacyCanary('secrets.sweep-erases-result-bytes', 'The session sweep and its checkpoint erase the row\'s bytes from main file and WAL', [], async (t, tokens, client) => {
    const resumed = await resumeSession(t, client, SID);
    t.expect('sweep checkpoint', 'complete', resumed.sweep?.checkpoint);
    t.expect('canary hits after sweep + checkpoint, connection open', 0, await scanCanaries(t, client, tokens));
    return client;
  }),
  withLegacyCanary('secrets.blocked-reader-defers-then-completes', 'A blocked reader defers the checkpoint; a later empty sweep completes and the bytes go', ['sqliteWal', 'fault:checkpoint_blocked_by_reader'], async (t, tokens, client) => {
    await client.op('fault', { fault: 'checkpoint_blocked_by_reader', enabled: true });
    const resumed = await resumeSession(t, client, SID);
    t.expect('checkpoint with a blocked reader', 'deferred', resumed.sweep?.checkpoint);
    // Control only: while deferred the bytes may remain, so this scan is recorded, not judged.
    await scanCanaries(t, client, tokens, 'control');
    await client.op('fault', { fault: 'checkpoint_blocked_by_reader', enabled: false });
    const empty = await client.op('sessionSweep', { sessionId: SID, captured: [] });
    t.expect('later empty sweep checkpoint', 'complete', empty.checkpoint);
    t.expect('canary hits after the later empty sweep', 0, await scanCanaries(t, client, tokens));
    return client;
  }),
];

// One run node whose tool call carries canaries in a declared secret, a Bearer credential, URL userinfo and a credential query parameter.
function canaryRun(t: TrialContext, make: (i: number) => string = () => canary(t)): { run: RunScript; all: string[] } {
  const [secret, bearer, userinfo, query] = [make(0), make(1), make(2), make(3)];
  const call = defaultCall({ canary: secret, args: { ...defaultCall({ canary: secret }).args, auth: `Bearer ${bearer}`, url: `https://svc:${userinfo}@payments.invalid/charge?access_token=${query}&x=1` } });
  return { run: singleNodeRun(t, { calls: [call] }), all: [secret, bearer, userinfo, query] };
}

// Evidence must compare across machines: the trial directory, the temp root and the home directory become placeholders.
function placeholderPath(path: string, trialDir: string): string {
  if (path === trialDir || isInside(path, trialDir)) return join('<trial>', relative(trialDir, path));
  for (const [root, name] of [[tmpdir(), '<tmpdir>'], [homedir(), '~'], [process.cwd(), '<cwd>']] as const) {
    if (isInside(path, root)) return join(name, relative(root, path));
  }
  return path;
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

type Body = (t: TrialContext, tokens: string[], client: JournalClient) => Promise<JournalClient>;

// Plants legacy session rows (one committed by default) whose results hold a canary each, proves the scan sees them,
// then runs the body.
// With `neighbour`, the same seed first plants a committed run row with a large result the open leaves alone: the
// seed's write is then larger than the clear's, so a store that rewrites a redo or journal file in place without
// shortening it keeps the seed's images of the legacy results in the tail the clear did not reach.
function withLegacyCanary(id: string, title: string, needs: Need[], body: Body, kinds: readonly LegacyKind[] = [{ state: 'committed', slot: 0 }], neighbour = false): Scenario {
  return defineScenario({
    id,
    title,
    spec: 'effect-journal §11, §9, §12 session acceptance (live main/WAL byte scans)',
    tags: ['secrets', 'byte-scan', 'session', 'wal'],
    needs: ['sessions', 'seeding', ...needs],
    description: `${title}. ${kinds.length === 1 ? 'A legacy writer\'s session row holding a result with a canary is' : `Legacy writer's session rows (${kinds.map((k) => `${k.state} at slot ${k.slot}`).join(', ')}), each holding a result with a canary of its own, are`} planted${neighbour ? ' in one seed after a committed run row holding a 16 KiB result' : ''}; the scan must see ${kinds.length === 1 ? 'it' : 'each'} first (control), then must not after the erasure.`,
    asserts: ['control: the canary is visible before the erasure', title],
    async trial(t) {
      const tokens = kinds.map(() => canary(t));
      const client = await t.driver();
      const rows = kinds.map(({ state, slot }, i) => ({ scope: { kind: 'session' as const, sessionId: SID, turn: 0 }, slot, toolId: 'http_request', tier: 3 as const, state, argsDigest: 'v5:' + 'a'.repeat(64), callId: `eng-legacy-${i + 1}`, resultJson: JSON.stringify({ modelValue: tokens[i], truncated: false, summary: 's', outputMappingResult: tokens[i] }) }));
      const big = { scope: { kind: 'run' as const, runId: 'run-legacy-neighbour', nodeId: 'node-a' }, slot: 0, toolId: 'http_request', tier: 3 as const, state: 'committed' as const, argsDigest: 'v5:' + 'c'.repeat(64), callId: 'eng-neighbour', resultJson: JSON.stringify({ modelValue: 'n'.repeat(16_384), truncated: false, summary: 's', outputMappingResult: null }) };
      await client.op('seed', { rows: neighbour ? [big, ...rows] : rows });
      await snapshotBefore(t, client);
      for (const [i, token] of tokens.entries()) {
        if ((await scanCanaries(t, client, [token], 'control')) > 0) continue;
        t.inconclusiveReason = `control failed: the canary planted in the ${kinds[i]!.state} legacy row at slot ${kinds[i]!.slot} is not visible in the files before the erasure, so its absence afterwards would prove nothing`;
        return;
      }
      const last = await body(t, tokens, client);
      await snapshotAfter(t, last);
    },
  });
}
