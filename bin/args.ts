// Command-line parsing on node:util parseArgs, with usage errors that name the command and the fix.
import { parseArgs } from 'node:util';
import { EjcError } from '../shared/errors.js';
import { closestIds } from '../harness/select-scenarios.js';

export type OptionSpec = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;

export interface Parsed {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
}

/** Parses one command's argv strictly; unknown flags and missing values become usage errors with the fix. */
export function parseCommand(command: string, argv: string[], options: OptionSpec, positionals: { min: number; max: number }): Parsed {
  let parsed: Parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageFromParseError(command, error, Object.keys(options));
  }
  if (parsed.values['help'] === true) return parsed;
  const count = parsed.positionals.length;
  if (count < positionals.min || count > positionals.max) {
    const want = positionals.min === positionals.max ? `${positionals.min}` : positionals.max === Infinity ? `at least ${positionals.min}` : `${positionals.min}-${positionals.max}`;
    throw new EjcError('usage', `ejc ${command} takes ${want} argument(s), got ${count}${count > positionals.max ? ` (unexpected: ${parsed.positionals.slice(positionals.max).join(' ')})` : ''}; see ejc ${command} --help`);
  }
  return parsed;
}

/** A string flag's single value, or undefined. */
export function stringValue(parsed: Parsed, name: string): string | undefined {
  const v = parsed.values[name];
  return typeof v === 'string' ? v : undefined;
}

/** A repeatable string flag's values (empty when absent). */
export function stringValues(parsed: Parsed, name: string): string[] {
  const v = parsed.values[name];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];
}

/** A boolean flag. */
export function flag(parsed: Parsed, name: string): boolean {
  return parsed.values[name] === true;
}

/** Parses an integer flag value in [min, max] or throws a usage error naming the flag and the range. */
export function intValue(name: string, text: string, min: number, max: number = Number.MAX_SAFE_INTEGER): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
    throw new EjcError('usage', `--${name} must be an integer ${range}, got ${JSON.stringify(text)}`);
  }
  return value;
}

function usageFromParseError(command: string, error: unknown, known: string[]): EjcError {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? '';
  const help = `see ejc ${command} --help`;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const name = quoted.replace(/^-+/, '').split('=')[0]!;
    const near = closestIds(known, name, 1).filter((k) => k !== name);
    const hint = near.length > 0 ? ` (did you mean --${near[0]}?)` : '';
    return new EjcError('usage', `unknown flag ${quoted} for ejc ${command}${hint}; ${help}`, { cause: error });
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return new EjcError('usage', `${message.replace(/^Option /, 'flag ')}; ${help}`, { cause: error });
  }
  return new EjcError('usage', `${message}; ${help}`, { cause: error });
}
