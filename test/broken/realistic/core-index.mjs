// The core red team's realistic broken journals (§2–§9, §13), each with the metamorphic scenario that catches it.
// Before metamorphic.*, five of them passed the whole default run as conformant, three were caught only by its bounded
// exploration (explore.*), and core-files-node-ignored by one fixed scenario as a side effect of a digest check.
export const CORE = [
  { name: 'core-ambiguous-late-commit', scenario: 'recovery.settle.moves-only-prepared' },
  { name: 'core-refusal-rewrites-digest', scenario: 'replay.inputs-that-count' },
  { name: 'core-gate-forgets-attention', scenario: 'gate.every-cell' },
  { name: 'core-conservative-tier1-rerun', scenario: 'gate.every-cell' },
  { name: 'core-mapping-absent-is-empty', scenario: 'replay.inputs-that-count' },
  { name: 'core-files-attempt-in-identity', scenario: 'identity.cr95-redispatch' },
  { name: 'core-files-node-ignored', scenario: 'identity.inputs' },
  { name: 'core-files-settle-any-generation', scenario: 'recovery.settle.superseded-id' },
  { name: 'core-reconcile-trusts-evidence', scenario: 'recovery.reconcile.only-its-cells' },
  // Overwrites a row's file in place: every fsync follows a complete write, so only a kill at the write(2) itself,
  // between the truncation and the bytes, tears it.
  { name: 'core-files-rewrite-in-place', scenario: 'sweep.settle.every-write' },
];

/** The from-scratch journal the core-files-* bugs are made of; it is conformant without them. */
export const CORE_FILES_JOURNAL = 'core-files-journal';

/** The adapter module of a core journal. */
export function coreModule(name) {
  return new URL(`./${name}.mjs`, import.meta.url).pathname;
}
