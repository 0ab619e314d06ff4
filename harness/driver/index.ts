// The driver layer's public surface: what the engine imports to run implementations and end their whole process trees.
export { startDriver } from './start-driver.js';
export { killAllDrivers, installSignalCleanup, liveDriverGroups } from './registry.js';
export { liveGroupMembers, processState } from './process-group.js';
export { hostScriptPath } from './launch.js';
export type { CallOutcome, DriverHandle, ExitInfo, ProcessEvidence, StartDriverOptions, TreeEvidence } from './types.js';
