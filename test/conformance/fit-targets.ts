// Which scenarios catch each fit defect (test/broken/fit-journals.mjs), and which must pass each allowed variant
// (test/fixtures/allowed/allowed-journal.mjs): the contract's choices a harness must not fail.
import type { DefectTarget } from './defect-targets.js';

export const FIT_TARGETS: readonly DefectTarget[] = [
  { defect: 'digest-plain-hex', scenarios: ['digest.persisted-form', 'cp04.after-settle'] },
  { defect: 'legacy-digest-replays', scenarios: ['digest.legacy-refused'] },
  { defect: 'tier1-without-key', scenarios: ['cp09.tier1.after-prepare.reconciling', 'cp09.tier1.after-dispatch.reconciling'] },
  { defect: 'engine-gate-read-swallowed', scenarios: ['gate.read-failure-refuses'] },
  { defect: 'understates-chunk-size', scenarios: ['cp11.session-sweep.chunk-failure-rolls-back', 'cp11.session-sweep.kill-between-chunks'] },
  { defect: 'discard-never-reruns', scenarios: ['recovery.operator-resolution'] },
  { defect: 'disclosure-wrong-address', scenarios: ['cp10.session.disclose-once'] },
  { defect: 'committed-disclosed-as-unresolved', scenarios: ['disclosure.legacy-placeholder', 'disclosure.errored-turn'] },
];

export interface AllowedTarget {
  readonly variant: string;
  readonly scenarios: readonly string[];
}

export const ALLOWED_TARGETS: readonly AllowedTarget[] = [
  { variant: 'names-disclosures-by-address', scenarios: ['cp10.session.disclose-once', 'cp10.session.concurrent-resume', 'disclosure.negative-slots', 'disclosure.legacy-placeholder'] },
  {
    variant: 'no-gate-of-its-own',
    scenarios: ['cp03.after-dispatch.tier3', 'cp04.after-settle.result-not-retained', 'cp06.two-effects.second-unresolved', 'cp09.tier1.after-dispatch.reconciling', 'gate.read-failure-refuses', 'gate.ignores-attempt', 'identity.scope-exact', 'recovery.operator-resolution', 'concurrency.interleaved-writers-keep-rows', 'identity.tool-ids-exact', 'concurrency.long-lived.gate-after-prepare-elsewhere', 'concurrency.long-lived.resolved-elsewhere'],
  },
  { variant: 'other-conservative-reason', scenarios: ['disclosure.legacy-placeholder', 'disclosure.duplicate-call-id', 'disclosure.name-mismatch', 'disclosure.errored-turn'] },
  { variant: 'keeps-discarded-row', scenarios: ['recovery.operator-resolution', 'concurrency.long-lived.resolved-elsewhere'] },
  { variant: 'terminal-sweeps-resolved', scenarios: ['recovery.operator-resolution'] },
  { variant: 'resolution-epoch-ms', scenarios: ['recovery.operator-resolution', 'sweep.resolve.every-write'] },
  { variant: 'resolution-iso-basic', scenarios: ['recovery.operator-resolution', 'recovery.session-resolution'] },
  { variant: 'gate-read-error-answer', scenarios: ['gate.read-failure-refuses'] },
  { variant: 'ambiguous-settles-to-attention', scenarios: ['s8e.batch', 's8e.unknown.dispatch-lost', 's8e.restart.replay-reuses-record', 's8e.kill.every.after-dispatch', 'explore.mixed', 'cp03.after-dispatch.tier3', 'sweep.settle.every-write'] },
  { variant: 'accepted-as-committed', scenarios: ['recovery.operator-resolution', 'sweep.resolve.every-write', 'concurrency.long-lived.resolved-elsewhere'] },
  { variant: 'optional-fields-absent', scenarios: ['gate.every-cell', 'cp10.session.disclose-once', 'disclosure.legacy-placeholder', 'cp09.tier2.receipt-absent.reconciling', 'cp09.tier2.receipt-found.reconciling', 'cp07.concurrent-prepare.race', 'recovery.operator-resolution'] },
  { variant: 'keys-tier1-only', scenarios: ['cp03.after-dispatch.tier3', 'cp09.tier2.receipt-absent.reconciling', 'cp09.tier2.receipt-found.reconciling', 'cp10.session.disclose-once'] },
  {
    variant: 'other-refusal-codes',
    scenarios: ['cp04.after-settle.public-args-changed', 'cp04.after-settle.mapping-changed', 'cp07.concurrent-prepare.race', 'cp07.concurrent-prepare.interleaved', 'cp07.concurrent-prepare.killed-holder', 'cp10.session.prepare-refused', 'digest.legacy-refused', 'replay.inputs-that-count', 'identity.inputs'],
  },
  { variant: 'session-results-unreported', scenarios: ['secrets.legacy-result-cleared-on-open', 'erasure.large-legacy-result-cleared', 'erasure.session-result-never-written', 'cp10.session.disclose-once'] },
  { variant: 'random-keys', scenarios: ['cp09.tier1.after-dispatch.reconciling', 'cp09.tier1.after-prepare.reconciling', 'identity.tier1-key.never-repeats', 'identity.tier1-key.equal-args-distinct', 'recovery.operator-resolution'] },
  { variant: 'larger-chunk', scenarios: ['cp11.session-sweep.chunk-failure-rolls-back', 'cp11.session-sweep.kill-between-chunks'] },
  { variant: 'unannounced-chunk', scenarios: ['cp11.session-sweep.chunk-failure-rolls-back', 'cp11.session-sweep.kill-between-chunks'] },
  { variant: 'no-kxm-claim', scenarios: ['claims.operations-match-hello', 'cp04.after-settle', 'cp10.session.disclose-once', 'recovery.operator-resolution'] },
  { variant: 'no-sessions', scenarios: ['claims.operations-match-hello', 'cp01.prepare-before-commit', 'cp07.concurrent-prepare.race', 'gate.read-failure-refuses', 'recovery.operator-resolution', 'explore.runs'] },
];

/**
 * Variants exploration must find conformant too: generation reaches their choice (gates, refusals at every kind of
 * holder, legacy session rows, `-p` port mappings, random keys) where no fixed scenario looks.
 */
export const EXPLORED_VARIANTS: readonly string[] = ['no-gate-of-its-own', 'other-refusal-codes', 'session-results-unreported', 'narrow-port-shape', 'random-keys', 'keys-tier1-only', 'names-disclosures-by-address', 'other-conservative-reason', 'no-kxm-claim', 'no-sessions', 'accepted-as-committed'];

/**
 * Stores that are not SQLite (the contract leaves the store free; `files` must name what it writes), written in plain
 * Node: their full default runs are conformant (test/examples/log-journal.test.ts; the row-files journal is the correct
 * base of test/broken/realistic/), and exploration must find them conformant too.
 */
export const EXPLORED_STORES: ReadonlyArray<{ readonly name: string; readonly module: string }> = [
  { name: 'an append-only JSON-lines log (examples/log-journal)', module: '../../examples/log-journal/journal.mjs' },
  { name: 'one JSON file per row (row-files-journal)', module: '../broken/realistic/row-files-journal.mjs' },
];
