// `--impl-secret key=value` (or `key=env:VAR`): an adapter option whose value is masked everywhere and never recorded.
import { EjcError } from '../shared/errors.js';
import { defaultSecretEnv } from '../harness/secrets/impl-secrets.js';
import { MIN_SECRET_LENGTH, registerSecret } from '../shared/secrets/mask.js';

export interface ParsedSecrets {
  /** Name → value, for the drivers' environment. */
  readonly values: Record<string, string>;
  /** Name → the environment variable reproduce commands read the value from. */
  readonly sources: Record<string, string>;
}

/** Parses and registers every `--impl-secret`; a bad pair is a usage error that says how to fix it. */
export function parseImplSecrets(pairs: readonly string[], publicKeys: readonly string[], env: NodeJS.ProcessEnv = process.env): ParsedSecrets {
  const values: Record<string, string> = {};
  const sources: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new EjcError('usage', '--impl-secret must look like key=value or key=env:VARIABLE (the value is never shown)');
    const key = pair.slice(0, eq);
    const given = pair.slice(eq + 1);
    if (Object.hasOwn(values, key)) throw new EjcError('usage', `--impl-secret ${key} is given twice; give each secret option once`);
    if (publicKeys.includes(key)) throw new EjcError('usage', `${key} is given both as --impl-option and as --impl-secret; give it once (as --impl-secret if it is secret)`);
    const fromEnv = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(given);
    const value = fromEnv ? env[fromEnv[1]!] : given;
    if (value === undefined) throw new EjcError('usage', `--impl-secret ${key}=env:${fromEnv![1]}: the environment variable ${fromEnv![1]} is not set`);
    if (value.length < MIN_SECRET_LENGTH) {
      throw new EjcError('usage', `--impl-secret ${key}: the value has ${value.length} character(s); a secret needs at least ${MIN_SECRET_LENGTH} to be masked without mangling other output (pass a value that is not secret with --impl-option)`);
    }
    values[key] = value;
    sources[key] = fromEnv ? fromEnv[1]! : defaultSecretEnv(key);
    registerSecret(value, `impl-secret:${key}`);
  }
  return { values, sources };
}

/** The argv with every secret value replaced by the variable it is read from, so a recorded command carries no secret. */
export function publicArgv(argv: readonly string[], sources: Readonly<Record<string, string>>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--impl-secret' && i + 1 < argv.length) {
      out.push(arg, publicPair(argv[++i]!, sources));
    } else if (arg.startsWith('--impl-secret=')) {
      out.push(`--impl-secret=${publicPair(arg.slice('--impl-secret='.length), sources)}`);
    } else {
      out.push(arg);
    }
  }
  return out;
}

function publicPair(pair: string, sources: Readonly<Record<string, string>>): string {
  const key = pair.slice(0, Math.max(0, pair.indexOf('=')));
  return `${key}=env:${sources[key] ?? defaultSecretEnv(key)}`;
}
