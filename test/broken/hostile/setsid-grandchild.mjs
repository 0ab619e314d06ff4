// Hostile adapter: the reference journal, plus a grandchild that double-forks into its own session at load.
// An ordinary driver otherwise: the grandchild holds nothing, but must not outlive the trial or the run.
import { leaveSetsidGrandchild } from './grandchild.mjs';

leaveSetsidGrandchild();

export { createJournal, default } from '../../../dist/reference-impl/adapter.js';
