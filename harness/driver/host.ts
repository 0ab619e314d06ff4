#!/usr/bin/env node
// The generic host driver: loads a JS adapter module and serves the wire protocol on stdin/stdout.
// Usage: node dist/harness/driver/host.js --module <path> [--option key=value]...
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
// Loaded modules: node builtins, host-io, host-serve, host-codec and host-shape, then the adapter. No zod, nothing of the
// harness: a driver starts at the cost of its journal (the harness validates hello and every response where it arrives).
import type { EffectJournal, JournalFactory } from '../journal-interface.js';
import { parseHostArgs } from './host-args.js';
import { requireWithCodeCache } from './code-cache.js';
import { logLine, SyncLineIo } from './host-io.js';
import { makeCrashpointHook, serve } from './host-serve.js';
import { takeImplSecrets } from '../secrets/impl-secrets.js';
import type { HostState } from './host-serve.js';

/** Exit code for every failure before serving; the harness reads the `ejc-host: <code>:` line on stderr. */
const HOST_SETUP_EXIT = 3;

const REQUIRED_METHODS = ['open', 'close', 'prepare', 'settle', 'gate'] as const;

/** Runs the host: parse arguments, load and check the adapter, then serve until EOF. */
async function main(argv: string[]): Promise<void> {
  const { modulePath, options: publicOptions } = parseCommandLine(argv);
  const options = { ...publicOptions, ...secretOptions() };
  const factory = await loadFactory(modulePath);
  const io = new SyncLineIo();
  const state: HostState = { armed: new Set(), seq: 0, open: false };
  let journal: unknown;
  try {
    journal = await factory({ crashpoint: makeCrashpointHook(io, state), options });
  } catch (err) {
    return setupFailure('adapter_load_failed', `the factory in ${modulePath} threw: ${describe(err)}`);
  }
  checkJournalShape(journal, modulePath);
  await serve(journal as EffectJournal, io, state);
  process.exit(0);
}

function parseCommandLine(argv: string[]): { modulePath: string; options: Record<string, string> } {
  const parsed = parseHostArgs(argv);
  if (typeof parsed === 'string') return setupFailure('usage', `${parsed}; usage: host.js --module <path> [--option key=value]...`);
  const options: Record<string, string> = {};
  for (const pair of parsed.option) {
    const eq = pair.indexOf('=');
    if (eq <= 0) return setupFailure('usage', `--option expects key=value, got ${JSON.stringify(pair)}`);
    options[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return { modulePath: resolve(process.cwd(), parsed.module), options };
}

async function loadFactory(modulePath: string): Promise<JournalFactory> {
  if (!existsSync(modulePath)) {
    return setupFailure('adapter_missing', `no adapter module at ${modulePath} (build it first, or pass the path of a module exporting createJournal)`);
  }
  let mod: Record<string, unknown>;
  try {
    mod = modulePath.endsWith('.cjs') ? requireCommonJs(modulePath) : ((await import(pathToFileURL(modulePath).href)) as Record<string, unknown>);
  } catch (err) {
    return setupFailure('adapter_load_failed', `importing ${modulePath} failed: ${describe(err)}`);
  }
  if (typeof mod['createJournal'] === 'function') return mod['createJournal'] as JournalFactory;
  if (typeof mod['default'] === 'function') return mod['default'] as JournalFactory;
  const found = Object.keys(mod).join(', ') || 'nothing';
  return setupFailure('adapter_shape', `${modulePath} exports neither a createJournal function nor a default function (it exports: ${found})`);
}

/**
 * A .cjs adapter through require(), which spares the driver node's ES module loader (a sixth of a bundled reference
 * driver's start-up CPU); as the namespace import() would give: its exports by name, and all of them as `default`.
 */
function requireCommonJs(modulePath: string): Record<string, unknown> {
  const exports = requireWithCodeCache(modulePath) ?? (createRequire(modulePath)(modulePath) as unknown);
  const named = typeof exports === 'object' && exports !== null ? (exports as Record<string, unknown>) : {};
  return { ...named, default: exports };
}

function checkJournalShape(journal: unknown, modulePath: string): void {
  const where = `the journal returned by the factory in ${modulePath}`;
  if (typeof journal !== 'object' || journal === null) return setupFailure('adapter_shape', `${where} is not an object`);
  const j = journal as Record<string, unknown>;
  for (const key of ['name', 'version'] as const) {
    if (typeof j[key] !== 'string' || j[key] === '') setupFailure('adapter_shape', `${where} has no non-empty string \`${key}\``);
  }
  // Only the outline: the harness checks every field of the capabilities when the hello answer arrives.
  const caps = j['capabilities'];
  if (typeof caps !== 'object' || caps === null || Array.isArray(caps)) setupFailure('adapter_shape', `${where} has no \`capabilities\` object`);
  for (const method of REQUIRED_METHODS) {
    if (typeof j[method] !== 'function') setupFailure('adapter_shape', `${where} has no method \`${method}\``);
  }
}

// --impl-secret options arrive in the environment, never in argv (which every user of the machine can read).
function secretOptions(): Record<string, string> {
  try {
    return takeImplSecrets(process.env);
  } catch (err) {
    return setupFailure('usage', describe(err));
  }
}

function setupFailure(code: string, message: string): never {
  logLine(`ejc-host: ${code}: ${message}`);
  process.exit(HOST_SETUP_EXIT);
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

// A promise, not a top-level await: the build bundles this host into one CommonJS file (host-bundle.ts says why).
main(process.argv.slice(2)).catch((err: unknown) => {
  logLine(`ejc-host: internal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(HOST_SETUP_EXIT);
});
