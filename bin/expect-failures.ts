// The --expect-failures file: scenario ids known to fail, so a CI gate can be adopted before every fix lands.
import { readFile } from 'node:fs/promises';
import { EjcError } from '../shared/errors.js';
import { currentScenarioId } from '../scenarios/renamed.js';

/** Reads one id per line; `#` starts a comment, blank lines are ignored. */
export async function readExpectFailures(path: string): Promise<Set<string>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new EjcError('usage', `cannot read --expect-failures file ${path}: ${(error as Error).message}`, { cause: error });
  }
  return parseExpectFailures(text);
}

/** Parses the file's text into the set of ids; a renamed scenario's old id counts as its new one, with a warning. */
export function parseExpectFailures(text: string, warn: (line: string) => void = warnOnStderr): Set<string> {
  const ids = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const listed = line.replace(/#.*$/, '').trim();
    if (listed === '') continue;
    const current = currentScenarioId(listed);
    if (current.warning !== null) warn(`--expect-failures: ${current.warning}`);
    ids.add(current.id);
  }
  return ids;
}

/** Old ids a user names (in --scenario, --exclude or explain) mapped to their new ones, each with a warning. */
export function currentIds(ids: readonly string[], warn: (line: string) => void = warnOnStderr): string[] {
  return ids.map((id) => {
    const current = currentScenarioId(id);
    if (current.warning !== null) warn(current.warning);
    return current.id;
  });
}

function warnOnStderr(line: string): void {
  process.stderr.write(`ejc: warning: ${line}\n`);
}
