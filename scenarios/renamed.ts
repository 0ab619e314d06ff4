// Scenario ids renamed to say what they check (old id → new id): old ids still work, with a warning, for one release.

/** Every renamed scenario id, old id → new id; docs/renamed-scenarios.md is generated from this table. */
export const RENAMED_SCENARIOS: Readonly<Record<string, string>> = {
  'blind.identity.tier1-equal-args-distinct-keys': 'identity.tier1-key.equal-args-distinct',
  'blind2.identity.tier1-keys-never-repeat': 'identity.tier1-key.never-repeats',
  'blind3.identity.tool-ids-exact': 'identity.tool-ids-exact',
  'journal.scope-exact': 'identity.scope-exact',
  'metamorphic.identity.cr95-redispatch': 'identity.cr95-redispatch',
  'metamorphic.identity.inputs': 'identity.inputs',
  'blind.kxm.lease.sub-second-expiry': 'kxm.lease.sub-second-expiry',
  'edge.kxm.lease.expiry-instant': 'kxm.lease.expiry-instant',
  'edge.kxm.lease.fence-spans-tools-and-runs': 'kxm.lease.fence-spans-tools-and-runs',
  'blind.retention.sibling-run-ids': 'retention.sibling-run-ids',
  'edge.session.post-read-commit-any-turn': 'retention.session-sweep.post-read-commit-any-turn',
  'blind.session.compacted-incomplete-turns': 'disclosure.compacted-incomplete-turns',
  'session.aborted-turn': 'disclosure.aborted-turn',
  'session.compacted-history-join': 'disclosure.compacted-history-join',
  'session.duplicate-call-id': 'disclosure.duplicate-call-id',
  'session.empty-final-turn': 'disclosure.empty-final-turn',
  'session.errored-turn': 'disclosure.errored-turn',
  'session.legacy-placeholder': 'disclosure.legacy-placeholder',
  'session.name-mismatch': 'disclosure.name-mismatch',
  'session.negative-slots': 'disclosure.negative-slots',
  'session.notice-failure-keeps-evidence': 'disclosure.notice-failure-keeps-evidence',
  'session.one-shot-unwind': 'disclosure.one-shot-unwind',
  'session.read-failure-keeps-evidence': 'disclosure.read-failure-keeps-evidence',
  'blind2.open.kill-every-write': 'sweep.open.every-write',
  'blind2.replay.loosely-equal-changes-refused': 'replay.loosely-equal-changes-refused',
  'metamorphic.replay.inputs-that-count': 'replay.inputs-that-count',
  'blind3.concurrency.interleaved-writers-keep-rows': 'concurrency.interleaved-writers-keep-rows',
  'blind3.replay.near-miss-credential-names-count': 'digest.near-miss-credential-names-count',
  'edge.digest.canonical-corners': 'digest.canonical-corners',
  'journal.digest-persisted-form': 'digest.persisted-form',
  'journal.legacy-digest-refused': 'digest.legacy-refused',
  'edge.erasure.checkpoint-complete-means-erased': 'erasure.checkpoint-complete-means-erased',
  'edge.erasure.deferred-retried-on-open': 'erasure.deferred-retried-on-open',
  'edge.erasure.large-legacy-result-cleared': 'erasure.large-legacy-result-cleared',
  'edge.erasure.run-result-after-terminal': 'erasure.run-result-after-terminal',
  'edge.session.result-never-written': 'erasure.session-result-never-written',
  'journal.gate-ignores-attempt': 'gate.ignores-attempt',
  'journal.gate-read-failure-refuses': 'gate.read-failure-refuses',
  'metamorphic.gate.every-cell': 'gate.every-cell',
  'metamorphic.gate.resume-again': 'gate.resume-again',
  'journal.operator-resolution': 'recovery.operator-resolution',
  'journal.settle-errors': 'recovery.settle-errors',
  'metamorphic.settle.moves-only-prepared': 'recovery.settle.moves-only-prepared',
  'metamorphic.settle.superseded-id': 'recovery.settle.superseded-id',
  'metamorphic.reconcile.only-its-cells': 'recovery.reconcile.only-its-cells',
};

/** Where the rename table is written, relative to the package root. */
export const RENAMED_DOC_FILE = 'docs/renamed-scenarios.md';

/** The current id for `id` (itself when it was never renamed) and, for an old id, the warning to print. */
export function currentScenarioId(id: string): { id: string; warning: string | null } {
  const renamed = Object.hasOwn(RENAMED_SCENARIOS, id) ? RENAMED_SCENARIOS[id] : undefined;
  if (renamed === undefined) return { id, warning: null };
  return { id: renamed, warning: `scenario ${id} is now ${renamed}; the old id will stop working in the next release` };
}

/** The rename table as Markdown (docs/renamed-scenarios.md). */
export function renamedScenariosDoc(): string {
  const rows = Object.entries(RENAMED_SCENARIOS).map(([from, to]) => `| \`${from}\` | \`${to}\` |`);
  return [
    '# Renamed scenarios',
    '',
    'Scenario ids now name the contract concept a scenario checks (identity, replay, gate, retention, disclosure,',
    'erasure, digest, concurrency, recovery, sweep, KXM), not how its bug was first found. An old id still works in an',
    '`--expect-failures` file, in `ejc explain` and in `--scenario`, with a warning on stderr naming the new id, for',
    'one release. Generated from `scenarios/renamed.ts` (`npm run gen:docs`); a test checks the two agree.',
    '',
    '| old id | new id |',
    '| --- | --- |',
    ...rows,
    '',
  ].join('\n');
}
