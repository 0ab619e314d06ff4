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
      ...(wide.machine === null ? [] : [`--jobs ${cores}, the whole machine over the run (/proc/stat): ${wide.machine.busy.toFixed(1)} core-s busy, ${wide.machine.idle.toFixed(1)} core-s idle, ${wide.machine.steal.toFixed(1)} core-s stolen by the hypervisor (wall time the run did not get)`]),
      // Where the lanes spend their time: the families the schedule packs around, longest first.
      `lane time by family at --jobs ${cores}: ${laneTimes(wide.durations)}`,
      `both conformant, same outcome digest ${wide.digest.slice(0, 16)}…`,
    ],
    measures: [
      { label: `matrix wall time at --jobs ${cores} (target set for 2 cores)`, value: wide.seconds, unit: 's', target: { atMost: 20 } },
      { label: `matrix wall time --jobs 1 / --jobs ${cores}`, value: narrow.seconds / wide.seconds, unit: 'ratio' },
    ],
  };
}

/** The family a scenario's lane time counts for: the kill-every and sweep families by their kind, the rest by prefix. */
export function familyOf(id: string): string {
  if (id.startsWith('s8e.kill.every.')) return 's8e.kill.every';
  if (id.startsWith('sweep.')) return 'sweep';
  return id.split('.')[0]!;
}

/** `s8e.kill.every 10.9 s, explore 8.3 s, …, total 48.5 s`: summed scenario durations per family, the four largest named. */
export function laneTimes(durations: ReadonlyArray<{ id: string; durationMs: number }>): string {
  const byFamily = new Map<string, number>();
  for (const d of durations) byFamily.set(familyOf(d.id), (byFamily.get(familyOf(d.id)) ?? 0) + d.durationMs);
  const sorted = [...byFamily].sort((a, b) => b[1] - a[1]);
  const rest = sorted.slice(4).reduce((n, [, ms]) => n + ms, 0);
  const total = sorted.reduce((n, [, ms]) => n + ms, 0);
  const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  return [...sorted.slice(0, 4).map(([f, ms]) => `${f} ${s(ms)}`), `the other ${sorted.length - Math.min(4, sorted.length)} families ${s(rest)}`, `total ${s(total)}`].join(', ');
}

async function runMatrix(jobs: number): Promise<{ seconds: number; cpu: number; machine: { busy: number; idle: number; steal: number } | null; digest: string; scenarios: number; kills: number; durations: Array<{ id: string; durationMs: number }> }> {
  const cpuBefore = reapedChildrenCpuSeconds();
  const machineBefore = machineCpuSeconds();
  const started = performance.now();
  const child = await execa(process.execPath, [EJC, 'run', '--jobs', String(jobs), '--json'], { reject: false, maxBuffer: 1 << 30, env: { CI: 'true' } });
  const seconds = (performance.now() - started) / 1000;
  const cpu = reapedChildrenCpuSeconds() - cpuBefore;
  const machineAfter = machineCpuSeconds();
  const machine = machineBefore === null || machineAfter === null ? null : { busy: machineAfter.busy - machineBefore.busy, idle: machineAfter.idle - machineBefore.idle, steal: machineAfter.steal - machineBefore.steal };
  if (child.exitCode !== 0) throw new Error(`bench: ejc run --jobs ${jobs} exited ${String(child.exitCode)}: ${child.stderr.slice(-2000)}`);
  const report = JSON.parse(child.stdout) as { outcomeDigest: string; scenarios: Array<{ id: string; durationMs: number }>; counts: { kills: number } };
  const durations = report.scenarios.map((r) => ({ id: r.id, durationMs: r.durationMs }));
  return { seconds, cpu, machine, digest: report.outcomeDigest, scenarios: report.scenarios.length, kills: report.counts.kills, durations };
}
