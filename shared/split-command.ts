// Splitting a recorded reproduce command into argv without a shell, so a report can never make us run a shell.
import { EjcError } from './errors.js';

/**
 * Splits a POSIX-style command line: single quotes are literal, double quotes allow \\ escapes,
 * backslash escapes one character outside quotes. Unquoted shell operators are refused because
 * without a shell they would not mean what they appear to mean.
 */
export function splitCommand(command: string): string[] {
  const args: string[] = [];
  let current = '';
  let inToken = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else current += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < command.length && '"\\$`'.includes(command[i + 1]!)) current += command[++i];
      else current += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inToken = true;
    } else if (c === '\\') {
      if (i + 1 >= command.length) throw refuse(command, 'it ends with a backslash');
      current += command[++i];
      inToken = true;
    } else if (/\s/.test(c)) {
      if (inToken) args.push(current);
      current = '';
      inToken = false;
    } else if (';&|<>()`$'.includes(c)) {
      throw refuse(command, `it contains the shell operator ${c}`);
    } else {
      current += c;
      inToken = true;
    }
  }
  if (quote !== null) throw refuse(command, `a ${quote} quote is not closed`);
  if (inToken) args.push(current);
  return args;
}

function refuse(command: string, why: string): EjcError {
  return new EjcError('usage', `cannot split the command ${JSON.stringify(command)}: ${why}`);
}
