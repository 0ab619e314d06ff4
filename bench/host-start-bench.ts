// Host-driver start-up: spawn to the `hello` answer, against node loading better-sqlite3 and nothing else.
import { confinement, confinementPrefix } from '../shared/confinement.js';
import { hostScriptPath } from '../harness/driver/launch.js';
import { referenceAdapterPath } from '../runner/run-conformance.js';
import { median, timeNode, type Figure } from './figure.js';

const HELLO = `${JSON.stringify({ type: 'request', id: 1, op: 'hello', params: {} })}\n`;

/** Interleaved rounds of both, so machine load hits them alike; medians and their ratio. */
export async function hostStartBench(rounds = Number(process.env['EJC_BENCH_STARTS'] ?? 15)): Promise<Figure> {
  const host = [hostScriptPath(), '--module', referenceAdapterPath()];
  const floor = ['-e', "require('better-sqlite3')"];
  const hostTimes: number[] = [];
  const bareTimes: number[] = [];
  const floorTimes: number[] = [];
  // The host as the harness starts it: confined to its own PID namespace where the machine allows it.
  const wrap = confinementPrefix();
  // One of each first: the page cache, not start-up, would decide the first spawn.
  await timeNode(host, { input: HELLO, untilOutput: true, wrap });
  await timeNode(floor, { untilOutput: false });
  for (let i = 0; i < rounds; i++) {
    hostTimes.push(await timeNode(host, { input: HELLO, untilOutput: true, wrap }));
    if (wrap.length > 0) bareTimes.push(await timeNode(host, { input: HELLO, untilOutput: true }));
    floorTimes.push(await timeNode(floor, { untilOutput: false }));
  }
  const hostMs = median(hostTimes);
  const floorMs = median(floorTimes);
  return {
    name: 'host-driver start-up (reference journal)',
    lines: [
      `${rounds} rounds, interleaved, medians`,
      `host driver, spawn to hello answer: ${hostMs.toFixed(1)} ms (confinement: ${confinement()})`,
      ...(bareTimes.length > 0 ? [`  the same host unconfined: ${median(bareTimes).toFixed(1)} ms`] : []),
      `node -e "require('better-sqlite3')", spawn to exit: ${floorMs.toFixed(1)} ms`,
    ],
    measures: [{ label: 'host spawn-to-hello / node+better-sqlite3', value: hostMs / floorMs, unit: 'ratio', target: { atMost: 1.5 } }],
  };
}
