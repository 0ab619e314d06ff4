// The --expect-failures file: scenario ids known to fail, so a CI gate can be adopted before every fix lands.
import { readFile } from 'node:fs/promises';
import { EjcError } from '../harness/errors.js';

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

/** Parses the file's text into the set of ids. */
export function parseExpectFailures(text: string): Set<string> {
  const ids = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const id = line.replace(/#.*$/, '').trim();
    if (id !== '') ids.add(id);
  }
  return ids;
}
