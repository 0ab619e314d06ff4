#!/usr/bin/env node
// The `ejc` command line: dispatches to a command and turns every outcome into a documented exit code.
import { readFileSync } from 'node:fs';
import { EjcError } from '../shared/errors.js';
import { installSignalCleanup } from '../harness/driver/registry.js';
import { closestIds } from '../harness/select-scenarios.js';
import { explainCommand, listCommand } from './cmd-catalog.js';
import { exploreCommand } from './cmd-explore.js';
import { keygenCommand } from './cmd-keygen.js';
import { mergeCommand } from './cmd-merge.js';
import { reportCommand } from './cmd-report.js';
import { runCommand } from './cmd-run.js';
import { signCommand } from './cmd-sign.js';
import { verifyCommand } from './cmd-verify.js';
import { vectorsCommand } from './cmd-vectors.js';
import { installStdio } from './stdio.js';
import { EXIT } from './exit-codes.js';
import { COMMAND_NAMES, helpText } from './help.js';
import type { CommandName } from './help.js';

/** Runs ejc with the arguments after the program name and returns the exit code; never throws. */
export async function main(argv: string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (error) {
    return reportError(error);
  }
}

const COMMANDS: Record<CommandName, (argv: string[]) => Promise<number>> = {
  run: runCommand,
  list: listCommand,
  explain: explainCommand,
  verify: verifyCommand,
  merge: mergeCommand,
  explore: exploreCommand,
  report: reportCommand,
  keygen: keygenCommand,
  sign: signCommand,
  vectors: vectorsCommand,
};

async function dispatch(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    process.stderr.write(helpText(undefined));
    return EXIT.error;
  }
  if (first === '--help' || first === '-h') {
    process.stdout.write(helpText(undefined));
    return EXIT.ok;
  }
  if (first === '--version' || first === '-v') {
    process.stdout.write(`${packageVersion()}\n`);
    return EXIT.ok;
  }
  if (first === 'help') {
    process.stdout.write(helpText(rest[0]));
    return EXIT.ok;
  }
  if (!isCommand(first)) {
    const near = closestIds([...COMMAND_NAMES], first, 1);
    throw new EjcError('usage', `unknown command ${first}${near.length > 0 ? ` (did you mean ${near[0]}?)` : ''}; run ejc --help`);
  }
  return COMMANDS[first](rest);
}

function isCommand(name: string): name is CommandName {
  return (COMMAND_NAMES as readonly string[]).includes(name);
}

function reportError(error: unknown): number {
  if (error instanceof EjcError) {
    process.stderr.write(`ejc: ${error.code === 'usage' ? 'usage error' : error.code}: ${error.message}\n`);
    // A CI gate that asked for a dimension this machine lacks tells that apart from a harness error.
    if (error.code === 'harness_requirement') return EXIT.requirement;
  } else {
    // Not an EjcError: a harness bug. The stack is what its report needs.
    process.stderr.write(`ejc: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  return EXIT.error;
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

// Everything ejc prints is masked, and a closed stdout never turns into an exit code.
installStdio();
// Ctrl-C must never leave a driver group or a trial directory behind.
installSignalCleanup();
process.exitCode = await main(process.argv.slice(2));
