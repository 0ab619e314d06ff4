// The full default matrix through the real CLI: wall time at --jobs <cores>, and at --jobs 1 against it.
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { reapedChildrenCpuSeconds, type Figure } from './figure.js';

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
      `--jobs ${cores}: ${wide.seconds.toFixed(1)} s wall, ${wide.cpu.toFixed(1)} CPU-s (harness and drivers, user + system)`,
      `--jobs 1: ${narrow.seconds.toFixed(1)} s wall, ${narrow.cpu.toFixed(1)} CPU-s`,
      // On a shared machine the wall time follows the load; CPU-s over cores is the wall time the work needs on idle cores.
      `CPU-s / ${cores} cores = ${(wide.cpu / cores).toFixed(1)} s: the wall time of --jobs ${cores} on idle cores with perfect packing`,
      `both conformant, same outcome digest ${wide.digest.slice(0, 16)}…`,
    ],
    measures: [
      { label: `matrix wall time at --jobs ${cores} (target set for 2 cores)`, value: wide.seconds, unit: 's', target: { atMost: 20 } },
      { label: `matrix wall time --jobs 1 / --jobs ${cores}`, value: narrow.seconds / wide.seconds, unit: 'ratio' },
    ],
  };
}

async function runMatrix(jobs: number): Promise<{ seconds: number; cpu: number; digest: string; scenarios: number; kills: number }> {
  const cpuBefore = reapedChildrenCpuSeconds();
  const started = performance.now();
  const child = await execa(process.execPath, [EJC, 'run', '--jobs', String(jobs), '--json'], { reject: false, maxBuffer: 1 << 30, env: { CI: 'true' } });
  const seconds = (performance.now() - started) / 1000;
  const cpu = reapedChildrenCpuSeconds() - cpuBefore;
  if (child.exitCode !== 0) throw new Error(`bench: ejc run --jobs ${jobs} exited ${String(child.exitCode)}: ${child.stderr.slice(-2000)}`);
  const report = JSON.parse(child.stdout) as { outcomeDigest: string; scenarios: unknown[]; counts: { kills: number } };
  return { seconds, cpu, digest: report.outcomeDigest, scenarios: report.scenarios.length, kills: report.counts.kills };
}
