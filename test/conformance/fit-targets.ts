// Which scenarios catch each fit defect (test/broken/fit-journals.mjs), and which must pass each allowed variant
// (test/fixtures/allowed/allowed-journal.mjs): the contract's choices a harness must not fail.
import type { DefectTarget } from './defect-targets.js';

export const FIT_TARGETS: readonly DefectTarget[] = [
  { defect: 'digest-plain-hex', scenarios: ['journal.digest-persisted-form', 'cp04.after-settle'] },
  { defect: 'legacy-digest-replays', scenarios: ['journal.legacy-digest-refused'] },
  { defect: 'tier1-without-key', scenarios: ['cp09.tier1.after-prepare.reconciling', 'cp09.tier1.after-dispatch.reconciling'] },
  { defect: 'engine-gate-read-swallowed', scenarios: ['journal.gate-read-failure-refuses'] },
  { defect: 'understates-chunk-size', scenarios: ['cp11.session-sweep.chunk-failure-rolls-back', 'cp11.session-sweep.kill-between-chunks'] },
  { defect: 'discard-never-reruns', scenarios: ['journal.operator-resolution'] },
  { defect: 'disclosure-wrong-address', scenarios: ['cp10.session.disclose-once'] },
  { defect: 'committed-disclosed-as-unresolved', scenarios: ['session.legacy-placeholder', 'session.errored-turn'] },
];

export interface AllowedTarget {
  readonly variant: string;
  readonly scenarios: readonly string[];
}

export const ALLOWED_TARGETS: readonly AllowedTarget[] = [
  { variant: 'names-disclosures-by-address', scenarios: ['cp10.session.disclose-once', 'cp10.session.concurrent-resume', 'session.negative-slots', 'session.legacy-placeholder'] },
  {
    variant: 'no-gate-of-its-own',
    scenarios: ['cp03.after-dispatch.tier3', 'cp04.after-settle.result-not-retained', 'cp06.two-effects.second-unresolved', 'cp09.tier1.after-dispatch.reconciling', 'journal.gate-read-failure-refuses', 'journal.gate-ignores-attempt', 'journal.scope-exact', 'journal.operator-resolution', 'blind3.concurrency.interleaved-writers-keep-rows', 'blind3.identity.tool-ids-exact'],
  },
  { variant: 'other-conservative-reason', scenarios: ['session.legacy-placeholder', 'session.duplicate-call-id', 'session.name-mismatch', 'session.errored-turn'] },
  { variant: 'keeps-discarded-row', scenarios: ['journal.operator-resolution'] },
  { variant: 'keys-tier1-only', scenarios: ['cp03.after-dispatch.tier3', 'cp09.tier2.receipt-absent.reconciling', 'cp09.tier2.receipt-found.reconciling', 'cp10.session.disclose-once'] },
  {
    variant: 'other-refusal-codes',
    scenarios: ['cp04.after-settle.public-args-changed', 'cp04.after-settle.mapping-changed', 'cp07.concurrent-prepare.race', 'cp07.concurrent-prepare.interleaved', 'cp07.concurrent-prepare.killed-holder', 'cp10.session.prepare-refused', 'journal.legacy-digest-refused', 'metamorphic.replay.inputs-that-count', 'metamorphic.identity.inputs'],
  },
  { variant: 'session-results-unreported', scenarios: ['secrets.legacy-result-cleared-on-open', 'edge.erasure.large-legacy-result-cleared', 'edge.session.result-never-written', 'cp10.session.disclose-once'] },
  { variant: 'random-keys', scenarios: ['cp09.tier1.after-dispatch.reconciling', 'cp09.tier1.after-prepare.reconciling', 'blind2.identity.tier1-keys-never-repeat', 'blind.identity.tier1-equal-args-distinct-keys', 'journal.operator-resolution'] },
  { variant: 'larger-chunk', scenarios: ['cp11.session-sweep.chunk-failure-rolls-back', 'cp11.session-sweep.kill-between-chunks'] },
  { variant: 'unannounced-chunk', scenarios: ['cp11.session-sweep.chunk-failure-rolls-back', 'cp11.session-sweep.kill-between-chunks'] },
];

/**
 * Variants exploration must find conformant too: generation reaches their choice (gates, refusals at every kind of
 * holder, legacy session rows, `-p` port mappings, random keys) where no fixed scenario looks.
 */
export const EXPLORED_VARIANTS: readonly string[] = ['no-gate-of-its-own', 'other-refusal-codes', 'session-results-unreported', 'narrow-port-shape', 'random-keys', 'keys-tier1-only', 'names-disclosures-by-address', 'other-conservative-reason'];
