// The fixed boundary of what a conformance report claims; every report carries it and verify insists on it verbatim.
import type { Report } from './schema.js';

/** The boundary every report states: process-crash durability as observed here, nothing wider. */
export function claimBoundary(): Report['boundary'] {
  return {
    claim: CLAIM,
    covers: [...COVERS],
    excludes: [...EXCLUDES],
  };
}

// A report that silently claimed more (power loss, real engines, remote targets) would be the very
// overclaim the contract exists to remove (spec §10), so the wording is fixed here, not per run.
const CLAIM =
  'Process-crash durability of the journal\'s acknowledged writes: after a SIGKILL of the implementation\'s ' +
  'process group at each observed point, a fresh process on the same directory upholds the effect-journal ' +
  'contract (gate, replay, refusal, disclosure, retention) for the scenarios, seed and trials recorded in this report.';

const COVERS = [
  'SIGKILL of the driver process group at protocol boundaries and at crash points the implementation announced',
  'restart of a fresh driver on the same journal directory after each kill',
  'the journal operations as exercised through the ejc wire protocol',
  'local fake targets (tier 1 idempotency key, tier 2 receipt lookup, tier 3 opaque) whose physical writes the harness counts',
  'the harness\'s own deterministic engine model (runs, nodes, turns, scripted tool calls)',
  'secret-byte absence from the database files the implementation lists, by byte scan',
];

const EXCLUDES = [
  'power loss, OS crash or kernel panic (SQLite synchronous = NORMAL survives process death only)',
  'storage hardware faults, torn sector writes or lying fsync',
  'real remote services and their idempotency or receipt guarantees',
  'a real agent or workflow engine (only the harness\'s engine model is exercised)',
  'crash points the implementation did not announce and scenarios reported not applicable',
  'exactly-once delivery of remote effects in general',
];
