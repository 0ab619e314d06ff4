// `ejc list` and `ejc explain`: what the scenarios are, straight from the catalog.
import { cutAtWord } from '../reports/failure-text.js';
import { EjcError } from '../shared/errors.js';
import { globToRegExp, nearIds, selectScenarios } from '../harness/select-scenarios.js';
import type { ScenarioInfo } from '../scenarios/catalog.js';
import { flag, parseCommand, stringValues } from './args.js';
import { EXIT } from './exit-codes.js';
import { currentIds } from './expect-failures.js';
import { helpText } from './help.js';

/** Runs `ejc list [--json] [--tag t]...` and returns the exit code. */
export async function listCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand('list', argv, { json: { type: 'boolean' }, tag: { type: 'string', multiple: true } }, { min: 0, max: 0 });
  if (flag(parsed, 'help')) return printHelp('list');
  const scenarios = selectScenarios(await loadCatalog(), [], stringValues(parsed, 'tag'), null);
  if (flag(parsed, 'json')) {
    process.stdout.write(`${JSON.stringify(scenarios, null, 2)}\n`);
    return EXIT.ok;
  }
  const rows = scenarios.map((s) => [s.id, s.spec, s.tags.join(','), s.title]);
  const { familyHeading, listingFamily } = await import('../scenarios/families.js');
  const width = terminalWidth(process.stdout, process.env);
  const lines = listTable([['ID', 'SPEC', 'TAGS', 'TITLE'], ...rows], width).split('\n');
  // Grouped by family: the catalog is sorted by id, so each family's rows are already together; each gets a heading line.
  const out = [lines[0]!];
  scenarios.forEach((s, i) => {
    const family = listingFamily(s.id);
    if (i === 0 || listingFamily(scenarios[i - 1]!.id) !== family) {
      const count = scenarios.filter((x) => listingFamily(x.id) === family).length;
      const heading = `== ${familyHeading(family, count)}`;
      out.push('', heading.length < width ? heading : cutAtWord(heading, Math.max(12, width - 1)));
    }
    out.push(lines[i + 1]!);
  });
  process.stdout.write(`${out.join('\n')}\n`);
  process.stdout.write(`${scenarios.length} scenario(s)\n`);
  return EXIT.ok;
}

/** Runs `ejc explain <id|prefix|glob> [--json]` and returns the exit code; nothing matching names the closest ids. */
export async function explainCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand('explain', argv, { json: { type: 'boolean' } }, { min: 1, max: 1 });
  if (flag(parsed, 'help')) return printHelp('explain');
  const query = currentIds([parsed.positionals[0]!])[0]!;
  const all = await loadCatalog();
  const matched = matchScenarios(all, query);
  if (matched.length === 0) {
    const near = nearIds(all.map((x) => x.id), query);
    throw new EjcError('scenario_unknown', `unknown scenario ${query}${near.length > 0 ? `; closest: ${near.join(', ')}` : ''} (no id, prefix or glob matches it; ejc list shows all)`);
  }
  if (flag(parsed, 'json')) {
    process.stdout.write(`${JSON.stringify(matched, null, 2)}\n`);
    return EXIT.ok;
  }
  process.stdout.write(`${matched.map(explanation).join('\n\n')}\n`);
  if (matched.length > 1) process.stdout.write(`\n${matched.length} scenario(s) match ${query}\n`);
  return EXIT.ok;
}

/** The scenarios an explain query names: the exact id, else a glob's matches, else every id with that prefix. */
export function matchScenarios(all: readonly ScenarioInfo[], query: string): ScenarioInfo[] {
  const exact = all.filter((s) => s.id === query);
  if (exact.length > 0) return exact;
  if (/[*?]/.test(query)) {
    const regex = globToRegExp(query);
    return all.filter((s) => regex.test(s.id));
  }
  return all.filter((s) => s.id.startsWith(query));
}

function explanation(s: ScenarioInfo): string {
  return [
    `${s.id}: ${s.title}`,
    `spec:  ${s.spec}`,
    `tags:  ${s.tags.join(', ') || '(none)'}`,
    `needs: ${s.needs.join(', ') || '(nothing beyond the core protocol)'}`,
    '',
    s.description.trim(),
    '',
    'asserts:',
    ...s.asserts.map((a) => `  - ${a}`),
    '',
    `run it: ejc run --scenario ${s.id}`,
  ].join('\n');
}

/** Loads the catalog on demand, so verify and merge work without loading any scenario code. */
export async function loadCatalog(): Promise<ScenarioInfo[]> {
  const catalog = await import('../scenarios/catalog.js');
  return catalog.listScenarios();
}

/**
 * Left-aligned columns separated by two spaces. Given a width, the tags, title and spec columns are cut
 * in that order (each keeps a few characters) so that no line wraps; cut cells end in "…".
 */
/**
 * The list as wide as it may be: ID, SPEC, TAGS, TITLE when the title keeps 40 characters, else without SPEC (ejc
 * explain prints it), else without TAGS too. Rows are [id, spec, tags, title].
 */
export function listTable(rows: string[][], width: number): string {
  for (const columns of [[0, 1, 2, 3], [0, 2, 3], [0, 3]]) {
    const picked = rows.map((r) => columns.map((c) => r[c] ?? ''));
    const id = Math.max(...picked.map((r) => r[0]!.length));
    const middle = columns.slice(1, -1).reduce((sum, c) => sum + Math.min(LIST_MIN[c]!, Math.max(...rows.map((r) => (r[c] ?? '').length))) + 2, 0);
    if (columns.length === 2 || id + 2 + middle + 40 <= width - 1) return table(picked, width, columns.map((c) => LIST_MIN[c]!));
  }
  return table(rows, width);
}

const LIST_MIN = [12, 14, 6, 24];

export function table(rows: string[][], width = Infinity, minimums: readonly number[] = LIST_MIN): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  const MIN = minimums;
  let over = widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1) - (width - 1);
  // The spec goes first (ejc explain prints it whole), then the tags (ejc list --tag filters by them), then the title,
  // which keeps at least 24 characters; the id is what one types, cut last.
  const last = widths.length - 1;
  const order = [...widths.keys()].filter((i) => i !== 0 && i !== last).concat(last, 0);
  // Down to the comfortable minimums first, the id whole; a narrow terminal then takes every column down to a few
  // characters, the id last (an id cut is one a reader cannot type).
  for (const [floor, cuts] of [[(c: number) => MIN[c] ?? 6, order.slice(0, -1)], [() => 6, order]] as const) {
    for (const c of cuts) {
      if (over <= 0) break;
      const cut = Math.min(over, Math.max(0, widths[c]! - floor(c)));
      widths[c] = widths[c]! - cut;
      over -= cut;
    }
  }
  const fit = (cell: string, w: number): string => (cell.length <= w ? cell : `${cell.slice(0, Math.max(0, w - 1))}…`);
  // The last column is prose: cut at a word.
  return rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cutAtWord(cell, widths[c]!) : fit(cell, widths[c]!).padEnd(widths[c]!))).join('  ')).join('\n') + '\n';
}

/** The terminal's width: the stream's columns on a TTY, else a valid COLUMNS, else 100 (ejc list --json gives whole values). */
export function terminalWidth(stream: { isTTY?: boolean; columns?: number }, env: NodeJS.ProcessEnv): number {
  if (stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0) return stream.columns;
  const columns = Number(env['COLUMNS']);
  return Number.isInteger(columns) && columns > 0 ? columns : DEFAULT_WIDTH;
}

/** The width of a table written to a pipe or file with no COLUMNS. */
export const DEFAULT_WIDTH = 100;

function printHelp(command: string): number {
  process.stdout.write(helpText(command));
  return EXIT.ok;
}
