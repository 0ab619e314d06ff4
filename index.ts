// The package's one curated public entry: run, verify and report on effect-journal conformance from code.

// Running the suite.
export { runConformance, defaultLaunch } from './runner/run-conformance.js';
export type { RunOptions, ProgressEvent } from './runner/run-conformance.js';
export { listScenarios } from './scenarios/catalog.js';
export type { ScenarioInfo } from './scenarios/catalog.js';
export { selectScenarios } from './harness/select-scenarios.js';

// Reports: the witness artifact, its checks and its renderings.
export { verifyReport, registerSectionVerifier } from './reports/verify.js';
export type { SectionVerifier, VerifyResult } from './reports/verify.js';
export { sealReport, outcomeView } from './reports/seal.js';
export { mergeReports } from './reports/merge.js';
export { toJUnit } from './reports/junit.js';
export { reportHtml } from './reports/html.js';
export { readReport } from './reports/read-report.js';
export { claimBoundary } from './reports/boundary.js';
export { signReport, verifySignedReport, INTOTO_PAYLOAD_TYPE, PREDICATE_TYPE } from './reports/sign-statement.js';
export { canonicalJson } from './shared/canonical-json.js';
export { Report as ReportSchema } from './reports/schema.js';
export type { Report, Launch, ScenarioResult, Trial, Verdict, ScenarioVerdict } from './reports/schema.js';

// Driving an implementation directly, and the reference implementation.
export { startDriver } from './harness/driver/start-driver.js';
export type { DriverHandle, StartDriverOptions } from './harness/driver/types.js';
export { createReferenceJournal } from './reference-impl/index.js';

// Writing an implementation: the interface, its errors and the wire protocol.
export { JournalError } from './harness/journal-interface.js';
export type { EffectJournal, JournalFactory, JournalFactoryOptions, CrashpointHook } from './harness/journal-interface.js';
export { EjcError, ProtocolViolation } from './shared/errors.js';
export type { EjcErrorCode } from './shared/errors.js';
export * as protocol from './shared/protocol/schemas.js';
