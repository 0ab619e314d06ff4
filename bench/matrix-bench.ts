// The full default matrix through the real CLI: wall time at --jobs <cores>, and at --jobs 1 against it.
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { machineCpuSeconds, reapedChildrenCpuSeconds, type Figure } from './figure.js';

const EJC = fileURLToPath(new URL('../bin/ejc.js', import.meta.url));

/** Runs `ejc run` twice (every core, then one lane); both must be conformant with the same outcome digest. */
export async function matrixBench(): Promise<Figure> {
  const cores = availableParallelism();
  const wide = await runMatrix(cores);
  const narrow = await runMatrix(1);
  if (narrow.digest !== wide.digest) throw new Error(`bench: --jobs 1 and --jobs ${cores} gave different outcome digests`);
  return {
    name: `full default matrix (ejc run, ${wide.scenarios} scenarios, ${wide.kills} kills)`,
    lines: [
      `--jobs ${cores}: ${wide.seconds.toFixed(1)} s wall, ${wide.cpu.toFixed(1)} CPU-s (harness and the drivers it reaped, user + system)`,
      `--jobs 1: ${narrow.seconds.toFixed(1)} s wall, ${narrow.cpu.toFixed(1)} CPU-s`,
      // On a shared machine the wall time follows the load; CPU-s over cores is the wall time the work needs on idle cores.
      `CPU-s / ${cores} cores = ${(wide.cpu / cores).toFixed(1)} s: the wall time of --jobs ${cores} on idle cores with perfect packing`,
      // The reaped-children count misses every driver a kill reparented; the machine's counters miss nothing (and count whatever else ran).
      ...(wide.machine === null ? [] : [`--jobs ${cores}, the whole machine over the run (/proc/stat): ${wide.machine.busy.toFixed(1)} core-s busy, ${wide.machine.idle.toFixed(1)} core-s idle`]),
      `both conformant, same outcome digest ${wide.digest.slice(0, 16)}…`,
    ],
    measures: [
      { label: `matrix wall time at --jobs ${cores} (target set for 2 cores)`, value: wide.seconds, unit: 's', target: { atMost: 20 } },
      { label: `matrix wall time --jobs 1 / --jobs ${cores}`, value: narrow.seconds / wide.seconds, unit: 'ratio' },
    ],
  };
}

async function runMatrix(jobs: number): Promise<{ seconds: number; cpu: number; machine: { busy: number; idle: number } | null; digest: string; scenarios: number; kills: number }> {
  const cpuBefore = reapedChildrenCpuSeconds();
  const machineBefore = machineCpuSeconds();
  const started = performance.now();
  const child = await execa(process.execPath, [EJC, 'run', '--jobs', String(jobs), '--json'], { reject: false, maxBuffer: 1 << 30, env: { CI: 'true' } });
  const seconds = (performance.now() - started) / 1000;
  const cpu = reapedChildrenCpuSeconds() - cpuBefore;
  const machineAfter = machineCpuSeconds();
  const machine = machineBefore === null || machineAfter === null ? null : { busy: machineAfter.busy - machineBefore.busy, idle: machineAfter.idle - machineBefore.idle };
  if (child.exitCode !== 0) throw new Error(`bench: ejc run --jobs ${jobs} exited ${String(child.exitCode)}: ${child.stderr.slice(-2000)}`);
  const report = JSON.parse(child.stdout) as { outcomeDigest: string; scenarios: unknown[]; counts: { kills: number } };
  return { seconds, cpu, machine, digest: report.outcomeDigest, scenarios: report.scenarios.length, kills: report.counts.kills };
}
