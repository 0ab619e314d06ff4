// A scenario lane's process: runs the scenarios the run hands it, one at a time, and sends back each result.
import { installSignalCleanup } from '../harness/driver/registry.js';
import { EjcError } from '../shared/errors.js';
import type { FromLane, LaneSetup, LaneTask, ToLane } from '../harness/lanes.js';
import { runScenario } from '../harness/run-scenario.js';
import { registerSecret } from '../shared/secrets/mask.js';
import { allScenarios } from '../scenarios/catalog.js';

/** Serves the run's messages until it says close or goes away; every driver and trial directory ends with the process. */
export function serveLane(): void {
  // SIGINT (Ctrl-C reaches the whole process group), SIGTERM (the run's exit) and SIGHUP end its drivers, as the CLI's do.
  installSignalCleanup();
  // The run is gone (killed, say): nothing reads the results any more; the exit hook ends what this lane started.
  process.on('disconnect', () => process.exit(1));
  let setup: LaneSetup | null = null;
  process.on('message', (m: ToLane) => {
    if (m.kind === 'setup') {
      setup = m.setup;
      for (const [value, label] of m.setup.secrets) registerSecret(value, label);
    } else if (m.kind === 'run') {
      runOne(setup, m.task).then(send, (error: unknown) => send({ kind: 'failed', error: described(error) }));
    } else {
      process.exit(0);
    }
  });
}

async function runOne(setup: LaneSetup | null, task: LaneTask): Promise<FromLane> {
  if (setup === null) throw new EjcError('internal', `lane handed ${task.id} before its setup`);
  const scenario = allScenarios().find((s) => s.id === task.id);
  if (scenario === undefined) throw new EjcError('internal', `lane handed unknown scenario ${task.id}`);
  const { secrets: _secrets, ...options } = setup;
  const result = await runScenario(scenario, {
    ...options,
    expectedFailure: task.expectedFailure,
    reproduce: task.reproduce,
    onKept: (id, dir) => send({ kind: 'kept', id, dir }),
    onSection: (name, id, value) => send({ kind: 'section', name, id, value }),
  });
  return { kind: 'done', result };
}

function send(message: FromLane): void {
  if (process.connected) process.send?.(message);
}

function described(error: unknown): { message: string; code: string | null; stack: string | null } {
  if (error instanceof EjcError) return { message: error.message, code: error.code, stack: error.stack ?? null };
  if (error instanceof Error) return { message: error.message, code: null, stack: error.stack ?? null };
  return { message: String(error), code: null, stack: null };
}

serveLane();
