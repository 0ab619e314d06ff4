// Public entry `effect-journal-conformance/journal`: what an adapter module needs, and nothing of the harness.
// A driver imports its adapter at every start, and the harness kills and restarts drivers hundreds of times a run:
// importing the main entry from an adapter loads the whole harness (zod, every schema, execa, the reports) into
// each driver, several times the cost of starting node. This entry loads only the error class and the reference journal.

export { JournalError } from './harness/journal-interface.js';
export type { EffectJournal, JournalFactory, JournalFactoryOptions, CrashpointHook } from './harness/journal-interface.js';
export { createReferenceJournal } from './reference-impl/index.js';
export type { Capabilities, JournalErrorCode, OpParams, OpResult, OperationName } from './shared/protocol/schemas.js';
export type { TierMode } from './shared/protocol/core-schemas.js';
