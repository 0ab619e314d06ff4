// Which scenarios are expected to catch each deliberately broken journal in test/broken/broken-journal.mjs.
// Running only these keeps CI short; the test still requires that the union of failures covers every scenario.
import type { Report } from '../../reports/schema.js';

export interface DefectTarget {
  readonly defect: string;
  readonly scenarios: readonly string[];
  readonly options?: Readonly<Record<string, string>>;
  /** Puts in place what the journal's bug needs to be met as it is in the field (run before the scenarios), and removes it (after). */
  readonly before?: () => void;
  readonly after?: () => void;
  /** Further evidence the report must carry for this defect (throws when it does not). */
  readonly evidence?: (report: Report) => void;
  /**
   * A bug that loses only a real race between processes: its scenarios run on seeds 1, 2, … up to this many times until
   * one run fails them (each run of cp07.concurrent-prepare.many-races catches such a journal about nine times in ten).
   */
  readonly attempts?: number;
}

export const DEFECT_TARGETS: readonly DefectTarget[] = [
  { defect: 'kxm-trusts-declared-class', scenarios: ['kxm.registry.downgrade-refused', 'kxm.registry.unknown-tool'] },
  { defect: 'kxm-blocks-never-started', scenarios: ['kxm.recovery.never-started'] },
  { defect: 'kxm-repeats-after-receipt', scenarios: ['kxm.recovery.receipt-found', 'kxm.lease.expired-after-dispatch'] },
  { defect: 'kxm-retry-new-key', scenarios: ['kxm.recovery.receipt-absent'] },
  { defect: 'kxm-retries-on-ambiguous-query', scenarios: ['kxm.recovery.query-unavailable', 'kxm.recovery.query-ambiguous'] },
  { defect: 'kxm-reattaches-replaced', scenarios: ['kxm.recovery.replacement-exists'] },
  { defect: 'kxm-resolves-without-evidence', scenarios: ['kxm.resolution.mark-completed', 'kxm.resolution.confirm-absent-retry', 'kxm.resolution.compensate-retry', 'kxm.resolution.mark-failed'] },
  { defect: 'kxm-cancels-with-unresolved', scenarios: ['kxm.cancel.unresolved-remains'] },
  { defect: 'kxm-cancel-blocks-on-intents', scenarios: ['kxm.cancel.no-unresolved'] },
  { defect: 'kxm-ignores-lease-expiry', scenarios: ['kxm.lease.expired-before-dispatch'] },
  { defect: 'kxm-assumes-rollback-on-lease-expiry', scenarios: ['kxm.lease.expired-after-dispatch'] },
  { defect: 'kxm-ignores-fencing-token', scenarios: ['kxm.lease.stale-fencing-token'] },
  { defect: 'kxm-blocks-read-only-retry', scenarios: ['kxm.recovery.read-only-retry'] },
  { defect: 'kxm-retries-non-idempotent', scenarios: ['kxm.recovery.read-only-retry'] },
  { defect: 'kxm-reapplies-workspace-mutation', scenarios: ['kxm.recovery.workspace-reconcile'] },
  { defect: 'kxm-workspace-completes-unverified', scenarios: ['kxm.recovery.workspace-reconcile'] },
  { defect: 'kxm-restarts-alive-attempt', scenarios: ['kxm.recovery.alive-reattach'] },
  { defect: 'ack-settle-before-durable', scenarios: ['cp04.after-settle', 'cp05.after-tool-result'] },
  { defect: 'prepare-commits-before-announcing', scenarios: ['cp01.prepare-before-commit'] },
  { defect: 'gate-only-unresolved', scenarios: ['cp04.after-settle.result-not-retained', 'gate.every-cell'] },
  { defect: 'gate-passes-on-read-failure', scenarios: ['gate.read-failure-refuses'] },
  { defect: 'gate-keys-on-attempt', scenarios: ['gate.ignores-attempt', 'identity.inputs'] },
  { defect: 'gate-committed-wins', scenarios: ['cp06.two-effects.second-unresolved', 'cp06.two-effects.first-unresolved'] },
  { defect: 'retries-after-ambiguous', scenarios: ['cp02.after-prepare.tier3', 'cp03.after-dispatch.tier3', 'cp08.settle-write-fails', 'cp09.tier3.reconciling', 'cp06.two-effects.second-unresolved', 'gate.resume-again'] },
  { defect: 'tiers-proceed-unreconciled', scenarios: ['cp09.tier1.conservative', 'cp09.tier2.conservative'], options: { tierMode: 'conservative' } },
  { defect: 'reconcile-records-nothing', scenarios: ['cp09.tier1.after-prepare.reconciling', 'cp09.tier1.after-dispatch.reconciling', 'cp09.tier2.receipt-absent.reconciling', 'cp09.tier2.receipt-found.reconciling', 'recovery.reconcile.only-its-cells'] },
  { defect: 'replays-changed-args', scenarios: ['cp04.after-settle.public-args-changed'] },
  { defect: 'digest-includes-secrets', scenarios: ['cp04.after-settle.secret-only-change'] },
  { defect: 'ignores-output-mapping', scenarios: ['cp04.after-settle.mapping-changed', 'replay.inputs-that-count'] },
  { defect: 'replay-rederives', scenarios: ['cp05.after-tool-result', 'cp04.after-settle'] },
  { defect: 'double-prepare', scenarios: ['cp07.concurrent-prepare.race', 'cp07.concurrent-prepare.killed-holder', 'cp07.concurrent-prepare.interleaved'] },
  { defect: 'session-replays', scenarios: ['cp10.session.prepare-refused'] },
  { defect: 'session-keeps-result', scenarios: ['cp10.session.prepare-refused'] },
  { defect: 'settle-idempotent', scenarios: ['recovery.settle-errors', 'recovery.settle.moves-only-prepared'] },
  { defect: 'resolution-not-recorded', scenarios: ['recovery.operator-resolution', 'recovery.settle.superseded-id'] },
  { defect: 'scope-prefix-match', scenarios: ['identity.scope-exact'] },
  { defect: 'terminal-sweeps-everything', scenarios: ['cp11.retention.terminal-keeps-unresolved', 'sweep.run-terminal.every-write'] },
  { defect: 'sweeps-resumable-run', scenarios: ['cp11.retention.resumable-run-keeps-committed', 'cp06.two-effects.kill-between'] },
  { defect: 'terminal-sweep-not-atomic', scenarios: ['cp11.retention.terminal-sweep-crash'] },
  { defect: 'session-sweeps-unresolved', scenarios: ['cp10.session.disclose-once', 'cp10.session.kill-between-notice-and-sweep', 'cp10.session.concurrent-resume', 'disclosure.negative-slots', 'disclosure.one-shot-unwind'] },
  { defect: 'sweep-by-session', scenarios: ['cp11.session-sweep.post-read-commit'] },
  { defect: 'sweep-by-id-only', scenarios: ['cp11.session-sweep.changed-state', 'cp11.session-sweep.id-reused'] },
  { defect: 'sweep-not-atomic', scenarios: ['cp11.session-sweep.chunk-failure-rolls-back', 'cp11.session-sweep.kill-between-chunks', 'sweep.session-sweep.every-write'] },
  { defect: 'sweeps-inside-outer-transaction', scenarios: ['cp11.session-sweep.outer-transaction'] },
  { defect: 'skips-wal-checkpoint', scenarios: ['secrets.sweep-erases-result-bytes'] },
  { defect: 'checkpoint-always-complete', scenarios: ['secrets.blocked-reader-defers-then-completes'] },
  { defect: 'keeps-legacy-copy', scenarios: ['secrets.legacy-result-cleared-on-open'] },
  { defect: 'torn-prepare', scenarios: ['sweep.prepare.every-write'] },
  { defect: 'torn-settle', scenarios: ['sweep.settle.every-write'] },
  { defect: 'stores-raw-args', scenarios: ['secrets.args-never-on-disk', 'explore.runs', 'explore.mixed'] },
  { defect: 'side-file-raw-args', scenarios: ['secrets.args-never-on-disk'] },
  {
    defect: 'raw-args-outside-dir',
    scenarios: ['secrets.args-never-in-written-files'],
    evidence: (report) => {
      const files = (report.sections['writtenFiles'] as Record<string, { outsideJournalDir: Array<{ path: string }> }>)['secrets.args-never-in-written-files'];
      if (!files?.outsideJournalDir.some((f) => f.path === '<trial>/journal-debug.log')) throw new Error(`sections.writtenFiles does not record the side file: ${JSON.stringify(files)}`);
    },
  },
  { defect: 'echoes-args-on-stderr', scenarios: ['secrets.args-never-on-disk'] },
  { defect: 'echoes-args-in-errors', scenarios: ['secrets.args-never-on-disk'] },
  { defect: 'join-ignores-status', scenarios: ['disclosure.errored-turn', 'disclosure.aborted-turn', 'disclosure.read-failure-keeps-evidence', 'disclosure.notice-failure-keeps-evidence'] },
  { defect: 'join-latest-turn-only', scenarios: ['disclosure.compacted-history-join', 'disclosure.empty-final-turn'] },
  { defect: 'lenient-attribution', scenarios: ['disclosure.duplicate-call-id', 'disclosure.name-mismatch'] },
  { defect: 'drops-committed-disclosures', scenarios: ['disclosure.legacy-placeholder', 'cp10.session.disclose-once'] },
  { defect: 'read-consumes-rows', scenarios: ['disclosure.read-failure-keeps-evidence', 'disclosure.notice-failure-keeps-evidence'] },
  { defect: 'replay-proceeds-fresh-key', scenarios: ['s8e.batch', 's8e.kill.every.after-prepare', 's8e.kill.every.after-dispatch', 's8e.kill.every.after-settle', 's8e.kill.every.after-tool-result', 'identity.cr95-redispatch'] },
  { defect: 'retry-key-rotates', scenarios: ['s8e.batch', 's8e.kill.every.after-prepare', 's8e.kill.every.after-dispatch', 's8e.kill.every.after-settle', 's8e.kill.every.after-tool-result'] },
  { defect: 'ambiguous-settles-committed', scenarios: ['s8e.batch', 's8e.kill.every.after-prepare', 's8e.kill.every.after-dispatch', 's8e.kill.every.after-settle', 's8e.kill.every.after-tool-result'] },
];
