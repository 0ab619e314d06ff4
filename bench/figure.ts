// What one benchmark figure is, and the measuring helpers the figures share. A figure is one small async function.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { REFERENCE_DRIVER_ENV } from '../harness/reference-env.js';

/** One measured number with the target it is held to: a ratio of two things measured in the same run, or seconds. */
export interface Measure {
  readonly label: string;
  readonly value: number;
  readonly unit: 'ratio' | 's';
  /** Absent for a figure that is reported, not held to a bound. */
  readonly target?: { readonly atMost: number } | { readonly atLeast: number };
}

/** One benchmark's printed result: a heading, detail lines, and what it measured against its targets. */
export interface Figure {
  readonly name: string;
  readonly lines: readonly string[];
  readonly measures: readonly Measure[];
}

export type FigureFn = () => Promise<Figure>;

/** Whether a measure meets its target; null when it has none. */
export function meets(m: Measure): boolean | null {
  if (m.target === undefined) return null;
  return 'atMost' in m.target ? m.value <= m.target.atMost : m.value >= m.target.atLeast;
}

/** The target in words, e.g. `<= 1.5`, or `-` without one. */
export function targetText(m: Measure): string {
  if (m.target === undefined) return '-';
  const unit = m.unit === 's' ? ' s' : '';
  return 'atMost' in m.target ? `<= ${m.target.atMost}${unit}` : `>= ${m.target.atLeast}${unit}`;
}

/** The median of some numbers (the upper one of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * Milliseconds from spawning `node <args>` until it writes its first stdout bytes (after `input`, if given), or
 * until it exits when `untilOutput` is false. Resolves only once the child has exited (its stdin is closed at its
 * first output), so no measurement overlaps the next.
 */
export function timeNode(args: readonly string[], options: { input?: string; untilOutput: boolean; cwd?: string; wrap?: readonly string[] }): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // The environment the reference journal's drivers get, so a baseline start pays what a driver start pays;
    // `wrap` starts node through a command prefix, as the harness confines its drivers (harness/driver/confinement.ts).
    const env = { ...process.env, ...REFERENCE_DRIVER_ENV };
    const [file, ...prefix] = [...(options.wrap ?? []), process.execPath];
    const child = spawn(file!, [...prefix, ...args], { stdio: ['pipe', 'pipe', 'inherit'], cwd: options.cwd ?? process.cwd(), env });
    let firstOutput: number | null = null;
    child.stdout.on('data', () => {
      firstOutput ??= performance.now() - started;
      child.stdin.end();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (!options.untilOutput) return resolve(performance.now() - started);
      if (firstOutput === null) return reject(new Error(`node ${args.join(' ')} exited (${String(code)}) before writing anything`));
      resolve(firstOutput);
    });
    if (options.input !== undefined) child.stdin.write(options.input);
    else child.stdin.end();
  });
}

/** Wall milliseconds of an async function. */
export async function wallMs(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/**
 * CPU seconds (user + system) of every child process this one has reaped so far, and of what they reaped in turn:
 * a `ejc run` child with all its drivers. Linux's /proc/self/stat counts them in clock ticks of 1/100 s.
 */
export function reapedChildrenCpuSeconds(): number {
  // The fields after the command name, which is in parentheses and may itself hold spaces.
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // cutime and cstime are fields 16 and 17 of stat(5); `fields` starts at field 3.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/**
 * Core-seconds the whole machine spent busy (user + nice + system + irq), idle (idle + iowait) and stolen (steal: a
 * virtual machine's cores running another guest) since boot, from /proc/stat; null where it is not there. A delta over
 * a run counts every process of it, drivers a kill reparented included (which the reaped-children count misses), and
 * anything else running: on a quiet machine, the run's own. Steal stretches wall time without any work of the run's.
 */
export function machineCpuSeconds(): { busy: number; idle: number; steal: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    // cpu user nice system idle iowait irq softirq steal ...; clock ticks of 1/100 s.
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map(Number) as number[];
    return { busy: (user! + nice! + system! + irq! + softirq!) / 100, idle: (idle! + iowait!) / 100, steal: (steal ?? 0) / 100 };
  } catch {
    return null;
  }
}
