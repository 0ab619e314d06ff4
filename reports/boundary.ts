// The fixed boundary of what a conformance report claims; every report carries it and verify insists on it verbatim.
import type { Report } from './schema.js';
import { DIMENSIONS } from '../shared/dimensions.js';
import { lacks } from './not-tested.js';

type Where = Pick<Report['environment'][number], 'confinement'> & Partial<Pick<Report['environment'][number], 'strace' | 'faketime' | 'sqlite'>>;

/**
 * The boundary every report states: process-crash durability as observed here, nothing wider. A journal that
 * declares its durable state lives in a separate server (`externalState`) gets that server named as excluded.
 */
export function claimBoundary(externalState?: string, environment: readonly Where[] = []): Report['boundary'] {
  const fallback = environment.some((e) => e.confinement === 'process-tree');
  // A machine without strace, libfaketime or better-sqlite3 never claims what only they show: the boundary names it as excluded.
  const missingTools = DIMENSIONS.filter((d) => d.id !== 'pid-namespace' && environment.some((e) => lacks(e, d.id))).map(toolExclusion);
  return {
    claim: CLAIM,
    covers: [...COVERS, ...(environment.length > 0 && !fallback ? [NAMESPACE_COVER] : [])],
    excludes: [...EXCLUDES, ...(fallback ? [PROCESS_TREE_EXCLUSION] : []), ...missingTools, ...(externalState === undefined ? [] : [externalExclusion(externalState)])],
  };
}

/** What a run on a machine without the tool of a dimension excludes. */
export function toolExclusion(d: (typeof DIMENSIONS)[number]): string {
  return `${d.untested}: the machine that ran it had no ${d.tool} (${d.id} not tested)`;
}

/**
 * What no black-box test can rule out, what ejc does to make it hard, and what stays detectable. Stated in every report:
 * a journal that recognised the harness could pass here and misbehave everywhere else.
 */
export const HARNESS_DETECTION =
  'an implementation that detects the harness and behaves differently under it: that is out of reach of any black-box test. ' +
  'ejc makes it hard: no environment variable, directory or process a driver can read is named after ejc, trial directories ' +
  'are named like any temporary directory and say nothing of the scenario, a confined driver\'s /proc shows only its own ' +
  'namespace, and secrets are looked for by the kernel\'s change times across the whole file system and in names, link ' +
  'targets, extended attributes and System V IPC objects, not by tracing alone. What remains detectable: being traced (the ' +
  'sweep and written-files scenarios run the driver under strace), the PID namespace itself and its init, a shell whose ' +
  'command line a driver can read, the harness\'s own files beside the journal directory, a module launch\'s host driver ' +
  'path, and the kills themselves';

/** What a run confined to PID namespaces adds to what it covers. */
export const NAMESPACE_COVER =
  'every driver ran in its own PID namespace, the only child of that namespace\'s init (a small shell the kill reaches first): ' +
  'when it was killed, the kernel killed every process it had started, whatever group, session or environment that process had ' +
  'moved to; it ran without CAP_SYS_ADMIN, so it could not unmount its private /proc to see the machine\'s other processes';

/** What the process-tree fallback (no PID namespaces here, or EJC_CONFINEMENT=process-tree) cannot see, stated as excluded. */
export const PROCESS_TREE_EXCLUSION =
  'processes a driver started that double-forked, cleared their environment, left its session and hold no file under the ' +
  'journal directory (e.g. a daemon keeping state in memory behind a socket): without PID namespaces (confinement: process-tree) ' +
  'the harness cannot find them, so such a process may outlive a kill and hand a restarted driver state a real crash would have lost';

/** The exclusion a declared external server adds: the kill never reached it, so its own crash durability is untested. */
export function externalExclusion(externalState: string): string {
  return `the durable state the implementation declares it keeps in a separate server (${JSON.stringify(externalState)}): ` +
    'the kill reaches the driver\'s processes, never that server, so the server\'s own crash durability is not tested';
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
  'power loss, OS crash or kernel panic: every kill is of processes, so what the kernel already held (written but not yet synced) survives it; only process-crash durability (§10) is tested, whatever the journal syncs',
  HARNESS_DETECTION,
  'storage hardware faults, torn sector writes or lying fsync',
  'real remote services and their idempotency or receipt guarantees',
  'a real agent or workflow engine (only the harness\'s engine model is exercised)',
  'crash points the implementation did not announce and scenarios reported not applicable',
  'exactly-once delivery of remote effects in general',
];
