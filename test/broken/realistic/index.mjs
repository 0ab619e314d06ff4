// The realistic broken journals, by name: each is a journal author's plausible bug that the fixed matrix passes.
export const REALISTIC = [
  'digest-sorts-top-level',
  'digest-replacer-drops-nested',
  'redaction-skips-arrays',
  'userinfo-through-first-at',
  'scope-key-concatenated',
  'key-renewed-after-a-day',
  'stale-prepare-abandoned',
  'open-expires-old-commits',
  'sweep-whole-captured-turns',
  'result-bound-truncates',
];

/** The adapter module of a realistic broken journal. */
export function realisticModule(name) {
  return new URL(`./${name}.mjs`, import.meta.url).pathname;
}

/** The edge red team's realistic broken journals (sessions, erasure, checkpoints, the v5 digest, KXM leases), by name. */
export const EDGE = [
  'args-kept-base64',
  'checkpoint-frame-count',
  'kxm-fence-per-tool',
  'kxm-lease-strict-expiry',
  'open-skips-idle-checkpoint',
  'ledger-html-safe-json',
  'ledger-terminal-soft-delete',
  'ledger-utf8-key-order',
  'secure-delete-fast',
  'session-result-in-audit',
  'sweep-through-captured-turn',
  'terminal-archives-rows',
];

/**
 * The S8e/KXM red team's realistic broken journals, each with the scenario designed for its class of bug. The kxm-* two
 * of them that end in a from-scratch KXM (kxm-files-journal.mjs) are built on it; the others wrap the reference.
 */
export const S8E_KXM = [
  { name: 'kxm-cancel-ignores-in-flight', scenarios: ['kxm.cancel.in-flight-unresolved'] },
  { name: 'kxm-dispatch-ignores-cancel', scenarios: ['kxm.cancel.stops-resolution-retry'] },
  { name: 'kxm-reattach-unknown-process', scenarios: ['kxm.recovery.process-unknown'] },
  { name: 'kxm-reconcile-count-off-by-one', scenarios: ['kxm.recovery.process-unknown'] },
  { name: 's8e-gate-settles-ambiguous-tier1', scenarios: ['s8e.unknown.dispatch-lost'] },
  { name: 's8e-reconcile-keeps-no-result', scenarios: ['s8e.restart.replay-reuses-record'] },
  { name: 's8e-replay-fenced-by-generation', scenarios: ['s8e.restart.replay-reuses-record'] },
];

/** The from-scratch KXM journal (over the from-scratch file journal) the kxm-files bugs are made of; conformant without them. */
export const KXM_FILES_JOURNAL = 'kxm-files-journal';

/** The claims red team's journals: a real bug behind a hello that claimed it out of the run (test/conformance/claim-targets.ts). */
export const CLAIM = [
  'claim-harness-gate',
  'claim-kxm-off',
  'claim-point-after-commit',
  'claim-resolution-off',
  'claim-seeding-off',
  'claim-sessions-off',
  'claim-wal-denied',
];

/** The secrets red team's realistic broken journals (redaction shapes, transformed copies, notes, deep logs), by name. */
export const SECRET = [
  'secret-header-case-sensitive',
  'secret-query-value-unreserved',
  'secret-userinfo-password-only',
  'secret-fts-search-index',
  'secret-fts-trigram-index',
  'secret-token-fingerprint',
  'secret-credential-named-file',
  'secret-gzip-request-copy',
  'secret-notes-attention-note',
  'secret-notes-deep-audit-log',
];

/**
 * The blind red team's realistic broken journals, written from the spec and the protocol docs alone (no scenario read),
 * each with the scenario that catches it: the blind.* ones were added because the default matrix passed the journal.
 * `file` ends in .mjs (an adapter over the reference) or .py (the Python example journal with the author's change).
 */
export const BLIND = [
  { name: 'run-ids-case-folded', file: 'run-ids-case-folded.mjs', scenarios: ['retention.sibling-run-ids'] },
  { name: 'tier1-key-from-args', file: 'tier1-key-from-args.mjs', scenarios: ['identity.tier1-key.equal-args-distinct'] },
  { name: 'kxm-lease-whole-seconds', file: 'kxm-lease-whole-seconds.mjs', scenarios: ['kxm.lease.sub-second-expiry'] },
  { name: 'py-compacted-turn-complete', file: 'py-compacted-turn-complete.py', scenarios: ['disclosure.compacted-incomplete-turns'] },
  { name: 'session-disclosed-at-read', file: 'session-disclosed-at-read.mjs', scenarios: ['disclosure.notice-failure-keeps-evidence'] },
  { name: 'terminal-sweeps-ambiguous', file: 'terminal-sweeps-ambiguous.mjs', scenarios: ['cp11.retention.terminal-keeps-unresolved'] },
  { name: 'kxm-unregistered-trusts-metadata', file: 'kxm-unregistered-trusts-metadata.mjs', scenarios: ['kxm.registry.unknown-tool'] },
  // Not cp07.concurrent-prepare.race: it catches this only when the two prepares overlap in real time, which a loaded
  // machine may not give (CI passed it once in two); interleaved holds one at its crash point while the other runs.
  { name: 'prepare-check-then-insert', file: 'prepare-check-then-insert.mjs', scenarios: ['cp07.concurrent-prepare.interleaved'] },
  { name: 'py-sweep-persist-rollback', file: 'py-sweep-persist-rollback.py', scenarios: ['secrets.sweep-erases-result-bytes'] },
  { name: 'py-digest-json-dumps', file: 'py-digest-json-dumps.py', scenarios: ['digest.canonical-corners'] },
];

/** The path of a blind journal's file. */
export function blindFile(file) {
  return new URL(`./${file}`, import.meta.url).pathname;
}

/** The redteam-points journals: a "never" or "must" of the contract ejc did not check on its own evidence (test/conformance/gap-targets.ts). */
export const GAP = [
  'settle-point-after-write',
  'secret-request-chunks',
  'secret-brotli-request',
  'secret-debug-log-base64',
  'state-outside-dir',
  'outer-probe-claimed-off',
  'resolution-time-in-seconds',
  'checkpoint-point-after-truncate',
];

/** The redteam-points journals that speak the wire protocol themselves (run with --cmd "node <module>"; test/claims/points-held.test.ts). */
export const GAP_COMMANDS = ['point-does-not-wait', 'point-goes-on-later'];

/**
 * The blind2 red team's realistic broken journals, written from the spec and the adapter docs alone, each with the
 * blind2.* scenario added because the default matrix and `ejc explore --seed 1..3` passed it (.mjs adapters, .py the
 * Python example journal with the author's change).
 */
export const BLIND2 = [
  { name: 'tier1-key-from-row-id', file: 'tier1-key-from-row-id.mjs', scenarios: ['identity.tier1-key.never-repeats'] },
  { name: 'log-compact-in-place', file: 'log-compact-in-place.mjs', scenarios: ['sweep.open.every-write'] },
  { name: 'py-mapping-value-equality', file: 'py-mapping-value-equality.py', scenarios: ['replay.loosely-equal-changes-refused'] },
];

/**
 * A blind2 journal left out of the CI catalogue for its cost: sweep.open.every-write catches it (the open cannot
 * read its rows, or cannot open at all) only from its 26th kill point on, about two minutes of Python drivers under
 * strace. Run it by hand: npx ejc run --cmd "python3 <file>" --scenario sweep.open.every-write
 */
export const BLIND2_BY_HAND = [
  { name: 'py-open-rebuild-script', file: 'py-open-rebuild-script.py', scenarios: ['sweep.open.every-write'] },
];

/**
 * Realistic broken journals only generated exploration catches, each with the bounded exploration of the default run
 * (explore.runs / explore.mixed, seed 1) that does: the fixed scenarios designed for their class pass them.
 * test/explore/bites-catches.json records the trial of the seed-1 stream that fails each.
 */
export const GENERATED = [
  // kxm.* and s8e.* pass it: no fixed scenario has two assignments of one step call the same keyed tool.
  { name: 'kxm-key-per-step', scenarios: ['explore.runs'] },
];

/**
 * The blind3 red team's realistic broken journals, written from the spec alone on two from-scratch stores (a file per
 * row, row-files-journal.mjs; a JSON-lines log, py-jsonl-journal.py) or the Python example journal, each
 * with the scenario that catches it: the default matrix passed every one of them before that scenario or check.
 * The two sweep ones are caught by the write sweeps' kills at rename/link/unlink/truncate; the local-time one by the
 * drivers' zone (Asia/Kathmandu), which puts a local time written as UTC outside the resolve call.
 */
export const BLIND3 = [
  { name: 'row-files-tool-slug', file: 'row-files-tool-slug.mjs', scenarios: ['identity.tool-ids-exact'] },
  { name: 'row-files-replace-by-unlink', file: 'row-files-replace-by-unlink.mjs', scenarios: ['sweep.settle.every-write'] },
  { name: 'row-files-sweep-file-by-file', file: 'row-files-sweep-file-by-file.mjs', scenarios: ['sweep.session-sweep.every-write'] },
  { name: 'row-files-open-rewrites-by-unlink', file: 'row-files-open-rewrites-by-unlink.mjs', scenarios: ['sweep.open.every-write'] },
  { name: 'py-credential-substring', file: 'py-credential-substring.py', scenarios: ['digest.near-miss-credential-names-count'] },
  { name: 'py-resolution-local-time', file: 'py-resolution-local-time.py', scenarios: ['recovery.operator-resolution'] },
  { name: 'py-jsonl-settle-cached-end', file: 'py-jsonl-settle-cached-end.py', scenarios: ['concurrency.interleaved-writers-keep-rows'] },
  // The blind3 log journal's own bug, found later by the default run's exploration (explore.runs, seed 1): a terminal
  // sweep killed between its delete record and its erasure left the results' bytes under every later checkpoint.
  { name: 'py-jsonl-erase-once', file: 'py-jsonl-erase-once.py', scenarios: ['sweep.run-terminal.every-write'] },
];

/** The from-scratch journals the blind3 bugs are made of; conformant without them. */
export const BLIND3_JOURNALS = ['row-files-journal.mjs', 'py-jsonl-journal.py'];

/**
 * The evasive red team's journals: each tries to fool the harness rather than have an honest bug (a log whose timestamps
 * are set back, state in /dev/shm or named like Python bytecode, a directory renamed at close, a scrubber that spares the
 * harness's canaries, arguments encrypted at rest, a settle acknowledged before its commit), with the scenario that now
 * catches it (test/conformance/evasive-targets.ts).
 */
export const EVASIVE = [
  'recovery-log-backdated',
  'recovery-log-in-var-log',
  'state-in-dev-shm',
  'state-named-as-pycache',
  'state-dir-renamed-at-close',
  'args-scrub-spares-canaries',
  'args-sealed-at-rest',
  'settle-acked-before-commit',
];

/**
 * Journals with a bug in an input dimension the workloads did not reach (public values the digest must count, ids that
 * collide across kinds and joined fields, scale), each with the scenario added for that dimension: the default matrix
 * passed every one of them before it (test/conformance/dimension-targets.ts).
 */
export const DIMENSIONS = [
  { name: 'digest-masks-random-looking', scenarios: ['digest.public-values-count'] },
  { name: 'digest-drops-null-members', scenarios: ['digest.public-values-count'] },
  { name: 'digest-sorts-string-arrays', scenarios: ['digest.public-values-count'] },
  { name: 'redact-quote-ends-at-first-quote', scenarios: ['digest.credential-forms-fixed'] },
  { name: 'scope-ignores-kind', scenarios: ['identity.ids-collide-across-kinds'] },
  { name: 'replay-key-joined-with-colon', scenarios: ['identity.joined-fields-stay-apart'] },
  { name: 'gate-first-page-only', scenarios: ['gate.scale.thousand-rows'] },
  { name: 'terminal-sweep-one-chunk', scenarios: ['gate.scale.thousand-rows'] },
  { name: 'result-cut-above-a-mebibyte', scenarios: ['replay.scale.megabyte-result'] },
  // From an ambiguity probe: a session read that takes the same-id run's rows (passed when the scenario checked only
  // what the read captured), and the tier in the unique key (identity.inputs never varied the tier).
  { name: 'session-read-takes-same-id-run', scenarios: ['identity.ids-collide-across-kinds'] },
  { name: 'tier-in-identity', scenarios: ['identity.inputs'] },
  // A session row's resolution answered but never written (no scenario resolved a session row before).
  { name: 'session-resolve-not-durable', scenarios: ['recovery.session-resolution'] },
  // From red team F: a terminal sweep matching the run id with LIKE (retention.sibling-run-ids tried only folded ids).
  { name: 'terminal-sweep-matches-like', scenarios: ['retention.sibling-run-ids'] },
  // From red team F: a prepared row older than an hour taken over by a new prepare (caught only by generated trials).
  { name: 'prepare-takes-over-stale', scenarios: ['gate.hours-later.unresolved-and-committed'] },
  // From red team F: declared secret keys matched without case (digest.public-values-count had no declared secret key).
  { name: 'secret-keys-fold-case', scenarios: ['digest.public-values-count'] },
  // Once only the dimensions profile's generated trials caught it (below): the scenario now leaves a run row unresolved.
  { name: 'attention-listed-across-kinds', scenarios: ['identity.ids-collide-across-kinds'] },
  // From red team G: a session read of the first page only (gate.scale had a thousand run rows, no session had more than a few).
  { name: 'session-read-first-page', scenarios: ['disclosure.scale.long-session'] },
  // From red team G: the identity looked up under the write lock in one transaction, inserted in a second (the forced
  // interleaving of cp07.concurrent-prepare.interleaved cannot get between them; only real races can, hence attempts).
  { name: 'prepare-check-locked-then-insert', scenarios: ['cp07.concurrent-prepare.many-races'], attempts: 6 },
  // From red team H: a late settle answered as taken while another process's operator had resolved the row.
  { name: 'settle-trusts-own-prepare', scenarios: ['concurrency.long-lived.settle-after-resolved-elsewhere'] },
  // From red team I: missing-terminal and orphan exchanges read as completed (only errored and aborted turns had a
  // scenario; the default run's exploration caught it only once it had six trials).
  { name: 'incomplete-means-failed', scenarios: ['disclosure.missing-terminal-turn', 'disclosure.orphan-turn'] },
  // From red team I: the open's legacy clear only for committed rows (every planted legacy row was committed).
  { name: 'legacy-clear-committed-only', scenarios: ['secrets.legacy-result-cleared-on-open'] },
  // From red team I: a session read selecting its rows without case (only run ids had sibling scenarios).
  { name: 'session-read-nocase', scenarios: ['retention.sibling-session-ids'] },
  // From red team I: a tool id kept in a fixed 32-byte field (no tool id was longer than 31 bytes).
  { name: 'tool-id-fixed-buffer', scenarios: ['identity.tool-ids-exact'] },
  // From red team I: a -p port given as a JSON number masked (only `ejc vectors` had a numeric port).
  { name: 'port-number-masked', scenarios: ['digest.credential-forms-fixed'] },
];

/**
 * Journals `ejc explore --profile dimensions` catches, on seed 1 within `trials` generated trials, on `clause`, where
 * the mixed profile's same trials pass them
 * (test/explore/dimensions-profile.test.ts). A session sharing a run's id is something only that profile generates.
 */
export const DIMENSIONS_PROFILE = [{ name: 'attention-listed-across-kinds', trials: 2, clause: 'disclosure' }];
