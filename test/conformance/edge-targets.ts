// Which edge.* scenario must fail (failed, never inconclusive) for each edge realistic broken journal, and the clean
// journals (reference, from-scratch ledger, log, Python) that must pass every edge.* scenario that applies to them.
import { fileURLToPath } from 'node:url';
import { catchesOf, realisticTarget, type RealisticTarget } from './realistic-target.js';

const realistic = (await import(new URL('../broken/realistic/index.mjs', import.meta.url).href)) as { EDGE: string[]; realisticModule: (name: string) => string };

// Each journal's class of bug and the scenario designed for that class (the default matrix before edge.* passed the
// first seven as conformant; the others only a generated trial of explore.* caught, or a scenario for another reason).
const CATCHES: Readonly<Record<string, readonly string[]>> = {
  // Caught by the byte scan once it also looks for re-encoded canaries (harness/world/canary-forms.ts).
  'args-kept-base64': ['secrets.args-never-on-disk'],
  'checkpoint-frame-count': ['erasure.checkpoint-complete-means-erased'],
  'kxm-fence-per-tool': ['kxm.lease.fence-spans-tools-and-runs'],
  'kxm-lease-strict-expiry': ['kxm.lease.expiry-instant'],
  'ledger-html-safe-json': ['digest.canonical-corners'],
  'ledger-utf8-key-order': ['digest.canonical-corners'],
  // And the byte check right after a restart's open in the open sweep: the killed open's clear was never checkpointed.
  'open-skips-idle-checkpoint': ['erasure.deferred-retried-on-open', 'sweep.open.every-write'],
  'ledger-terminal-soft-delete': ['erasure.run-result-after-terminal'],
  'secure-delete-fast': ['erasure.run-result-after-terminal', 'erasure.large-legacy-result-cleared'],
  'session-result-in-audit': ['erasure.session-result-never-written'],
  'sweep-through-captured-turn': ['retention.session-sweep.post-read-commit-any-turn'],
  'terminal-archives-rows': ['erasure.run-result-after-terminal'],
};

export type EdgeTarget = RealisticTarget;

/** One catalogue entry per edge journal: its module, and evidence that each designed scenario failed. */
export const EDGE_TARGETS: readonly EdgeTarget[] = realistic.EDGE.map((name) =>
  realisticTarget(realistic.realisticModule(name), name, catchesOf(CATCHES, name, 'test/conformance/edge-targets.ts')),
);

/** Journals with no injected edge bug: every edge.* scenario they can run must pass. */
export const EDGE_CLEAN = {
  reference: fileURLToPath(new URL('../../dist/reference-impl/adapter.js', import.meta.url)),
  ledger: fileURLToPath(new URL('../fixtures/adapters/ledger-journal.mjs', import.meta.url)),
  log: fileURLToPath(new URL('../../examples/log-journal/journal.mjs', import.meta.url)),
  python: fileURLToPath(new URL('../../examples/python-journal/journal.py', import.meta.url)),
};
