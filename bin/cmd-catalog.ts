// `ejc list` and `ejc explain`: what the scenarios are, straight from the catalog.
import { EjcError } from '../harness/errors.js';
import { closestIds, selectScenarios } from '../harness/select-scenarios.js';
import type { ScenarioInfo } from '../scenarios/catalog.js';
import { flag, parseCommand, stringValues } from './args.js';
import { EXIT } from './exit-codes.js';
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
  process.stdout.write(table([['ID', 'SPEC', 'TAGS', 'TITLE'], ...rows]));
  process.stdout.write(`${scenarios.length} scenario(s)\n`);
  return EXIT.ok;
}

/** Runs `ejc explain <id>` and returns the exit code; an unknown id names the closest ones. */
export async function explainCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand('explain', argv, {}, { min: 1, max: 1 });
  if (flag(parsed, 'help')) return printHelp('explain');
  const id = parsed.positionals[0]!;
  const all = await loadCatalog();
  const s = all.find((x) => x.id === id);
  if (s === undefined) {
    const near = closestIds(all.map((x) => x.id), id);
    throw new EjcError('scenario_unknown', `unknown scenario ${id}${near.length > 0 ? `; closest: ${near.join(', ')}` : ''} (ejc list shows all)`);
  }
  const lines = [
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
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}

/** Loads the catalog on demand, so verify and merge work without loading any scenario code. */
export async function loadCatalog(): Promise<ScenarioInfo[]> {
  const catalog = await import('../scenarios/catalog.js');
  return catalog.listScenarios();
}

/** Left-aligned columns separated by two spaces. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ')).join('\n') + '\n';
}

function printHelp(command: string): number {
  process.stdout.write(helpText(command));
  return EXIT.ok;
}
