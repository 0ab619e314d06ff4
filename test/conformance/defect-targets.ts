// Which scenarios are expected to catch each deliberately broken journal in test/broken/broken-journal.mjs.
// Running only these keeps CI short; the test still requires that the union of failures covers every scenario.

export interface DefectTarget {
  readonly defect: string;
  readonly scenarios: readonly string[];
  readonly options?: Readonly<Record<string, string>>;
}

export const DEFECT_TARGETS: readonly DefectTarget[] = [
  { defect: 'ack-settle-before-durable', scenarios: ['cp04.after-settle', 'cp05.after-tool-result'] },
  { defect: 'prepare-commits-before-announcing', scenarios: ['cp01.prepare-before-commit'] },
  { defect: 'gate-only-unresolved', scenarios: ['cp04.after-settle.result-not-retained'] },
  { defect: 'gate-passes-on-read-failure', scenarios: ['journal.gate-read-failure-refuses'] },
  { defect: 'gate-keys-on-attempt', scenarios: ['journal.gate-ignores-attempt'] },
  { defect: 'gate-committed-wins', scenarios: ['cp06.two-effects.second-unresolved', 'cp06.two-effects.first-unresolved'] },
  { defect: 'retries-after-ambiguous', scenarios: ['cp02.after-prepare.tier3', 'cp03.after-dispatch.tier3', 'cp08.settle-write-fails', 'cp09.tier3.reconciling', 'cp06.two-effects.second-unresolved'] },
  { defect: 'tiers-proceed-unreconciled', scenarios: ['cp09.tier1.conservative', 'cp09.tier2.conservative'], options: { tierMode: 'conservative' } },
  { defect: 'reconcile-records-nothing', scenarios: ['cp09.tier1.after-prepare.reconciling', 'cp09.tier1.after-dispatch.reconciling', 'cp09.tier2.receipt-absent.reconciling', 'cp09.tier2.receipt-found.reconciling'] },
  { defect: 'replays-changed-args', scenarios: ['cp04.after-settle.public-args-changed'] },
  { defect: 'digest-includes-secrets', scenarios: ['cp04.after-settle.secret-only-change'] },
  { defect: 'ignores-output-mapping', scenarios: ['cp04.after-settle.mapping-changed'] },
  { defect: 'replay-rederives', scenarios: ['cp05.after-tool-result', 'cp04.after-settle'] },
  { defect: 'double-prepare', scenarios: ['cp07.concurrent-prepare.race', 'cp07.concurrent-prepare.killed-holder'] },
  { defect: 'session-replays', scenarios: ['cp10.session.prepare-refused'] },
  { defect: 'session-keeps-result', scenarios: ['cp10.session.prepare-refused'] },
  { defect: 'settle-idempotent', scenarios: ['journal.settle-errors'] },
  { defect: 'resolution-not-recorded', scenarios: ['journal.operator-resolution'] },
  { defect: 'scope-prefix-match', scenarios: ['journal.scope-exact'] },
  { defect: 'terminal-sweeps-everything', scenarios: ['cp11.retention.terminal-keeps-unresolved'] },
  { defect: 'sweeps-resumable-run', scenarios: ['cp11.retention.resumable-run-keeps-committed', 'cp06.two-effects.kill-between'] },
  { defect: 'terminal-sweep-not-atomic', scenarios: ['cp11.retention.terminal-sweep-crash'] },
  { defect: 'session-sweeps-unresolved', scenarios: ['cp10.session.disclose-once', 'cp10.session.kill-between-notice-and-sweep', 'cp10.session.concurrent-resume', 'session.negative-slots', 'session.one-shot-unwind'] },
  { defect: 'sweep-by-session', scenarios: ['cp11.session-sweep.post-read-commit'] },
  { defect: 'sweep-by-id-only', scenarios: ['cp11.session-sweep.changed-state', 'cp11.session-sweep.id-reused'] },
  { defect: 'sweep-not-atomic', scenarios: ['cp11.session-sweep.chunk-failure-rolls-back', 'cp11.session-sweep.kill-between-chunks'] },
  { defect: 'sweeps-inside-outer-transaction', scenarios: ['cp11.session-sweep.outer-transaction'] },
  { defect: 'skips-wal-checkpoint', scenarios: ['secrets.sweep-erases-result-bytes'] },
  { defect: 'checkpoint-always-complete', scenarios: ['secrets.blocked-reader-defers-then-completes'] },
  { defect: 'keeps-legacy-copy', scenarios: ['secrets.legacy-result-cleared-on-open'] },
  { defect: 'stores-raw-args', scenarios: ['secrets.args-never-on-disk'] },
  { defect: 'join-ignores-status', scenarios: ['session.errored-turn', 'session.aborted-turn', 'session.read-failure-keeps-evidence', 'session.notice-failure-keeps-evidence'] },
  { defect: 'join-latest-turn-only', scenarios: ['session.compacted-history-join', 'session.empty-final-turn'] },
  { defect: 'lenient-attribution', scenarios: ['session.duplicate-call-id', 'session.name-mismatch'] },
  { defect: 'drops-committed-disclosures', scenarios: ['session.legacy-placeholder', 'cp10.session.disclose-once'] },
  { defect: 'read-consumes-rows', scenarios: ['session.read-failure-keeps-evidence', 'session.notice-failure-keeps-evidence'] },
];
