// `ejc vectors`: checks a journal's §11 args digest against the shipped test vectors, through the protocol.
import { EjcError } from '../shared/errors.js';
import { markDifference } from '../reports/string-diff.js';
import { flag, intValue, parseCommand, stringValue, stringValues } from './args.js';
import { launchFrom } from './cmd-run.js';
import { EXIT } from './exit-codes.js';
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, helpText } from './help.js';

const VECTOR_FLAGS = {
  impl: { type: 'string' },
  'impl-option': { type: 'string', multiple: true },
  cmd: { type: 'string' },
  file: { type: 'string' },
  only: { type: 'string', multiple: true },
  timeout: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** Runs `ejc vectors ...`: exit 0 when every vector's digest matches, 1 when one does not. */
export async function vectorsCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand('vectors', argv, VECTOR_FLAGS, { min: 0, max: 0 });
  if (flag(parsed, 'help')) {
    process.stdout.write(helpText('vectors'));
    return EXIT.ok;
  }
  const timeoutText = stringValue(parsed, 'timeout');
  const launch = launchFrom(parsed);
  const { readVectorFile } = await import('../harness/vectors/vector-file.js');
  const file = await readVectorFile(stringValue(parsed, 'file'));
  const names = stringValues(parsed, 'only');
  for (const name of names) if (!file.vectors.some((v) => v.name === name)) throw new EjcError('usage', `--only names no vector: ${JSON.stringify(name)}`);
  const vectors = names.length === 0 ? file.vectors : file.vectors.filter((v) => names.includes(v.name));
  const { checkVectors } = await import('../harness/vectors/check-vectors.js');
  const { defaultLaunch } = await import('../runner/run-conformance.js');
  const result = await checkVectors({ launch: launch ?? defaultLaunch(), timeoutMs: timeoutText === undefined ? DEFAULT_TIMEOUT_MS : intValue('timeout', timeoutText, 1, MAX_TIMEOUT_MS), vectors });
  const failed = result.outcomes.filter((o) => !o.passed);
  if (flag(parsed, 'json')) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else process.stdout.write(vectorsText(result.implementation, result.outcomes));
  return failed.length === 0 ? EXIT.ok : EXIT.nonconformant;
}

/** The human summary: one line per vector, and for each mismatch the two canonical strings with the first difference marked. */
export function vectorsText(impl: { name: string; version: string }, outcomes: readonly import('../harness/vectors/check-vectors.js').VectorOutcome[]): string {
  const lines = [`${impl.name} ${impl.version}: ${outcomes.filter((o) => o.passed).length} of ${outcomes.length} §11 digest vectors match`];
  for (const o of outcomes) {
    lines.push(`${o.passed ? '  ok      ' : '  MISMATCH'} ${o.name}${o.reading === null ? '' : ` (another allowed reading: ${o.reading})`}`);
    if (o.passed) continue;
    lines.push(`      covers:   ${o.covers}`, `      expected digest:    ${o.expectedDigest}`);
    for (const a of o.alternatives) lines.push(`      or, ${a.choice}: ${a.digest}`);
    lines.push(`      journal's digest:   ${o.actualDigest ?? `none (${o.error ?? 'no row'})`}`);
    lines.push(`      expected canonical: ${o.expectedCanonical}`);
    if (o.actualCanonical === null) {
      lines.push('      journal\'s canonical: not exposed (answer the optional argsProjection operation to see it here; docs/protocol.md)');
    } else {
      lines.push(`      journal's canonical: ${o.actualCanonical}`);
      lines.push(...markDifference(o.expectedCanonical, o.actualCanonical).map((l) => `      ${l}`));
    }
  }
  return `${lines.join('\n')}\n`;
}
