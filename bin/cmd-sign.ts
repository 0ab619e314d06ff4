// `ejc sign`: signs a verified report as an in-toto Statement in a DSSE envelope beside it.
import { EjcError } from '../shared/errors.js';
import '../harness/pack-sections.js';
import { readReportJson } from '../reports/read-report.js';
import type { Report } from '../reports/schema.js';
import { publicKeyOf, keyId, readPrivateKey } from '../reports/sign-keys.js';
import { envelopePathFor, signReport } from '../reports/sign-statement.js';
import { verifyReport } from '../reports/verify.js';
import { writeFileAtomic } from '../reports/write-report.js';
import { flag, parseCommand, stringValue } from './args.js';
import { EXIT } from './exit-codes.js';
import { helpText } from './help.js';

/** Runs `ejc sign <report.json> --key <private key> [--out <envelope>]` and returns the exit code. */
export async function signCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand('sign', argv, { key: { type: 'string' }, out: { type: 'string' } }, { min: 1, max: 1 });
  if (flag(parsed, 'help')) {
    process.stdout.write(helpText('sign'));
    return EXIT.ok;
  }
  const keyPath = stringValue(parsed, 'key');
  if (keyPath === undefined) throw new EjcError('usage', 'ejc sign needs --key <private key file> (make one with ejc keygen); see ejc sign --help');
  const path = parsed.positionals[0]!;
  const secretKey = await readPrivateKey(keyPath);
  const value = await readReportJson(path);
  const result = verifyReport(value);
  if (!result.ok) {
    // Signing vouches for a report; one that does not verify is refused, not signed.
    process.stdout.write(`${path}: ${result.problems.length} problem(s), not signed\n${result.problems.map((p) => `  ${p}\n`).join('')}`);
    return EXIT.problems;
  }
  const target = stringValue(parsed, 'out') ?? envelopePathFor(path);
  await writeSignature(target, value as Report, secretKey);
  process.stdout.write(`signed ${path} as ${target} (keyid ${keyId(publicKeyOf(secretKey))})\n`);
  return EXIT.ok;
}

/** Writes the signed envelope of a report (used by `ejc run --sign` too). */
export async function writeSignature(target: string, report: Report, secretKey: Uint8Array): Promise<void> {
  await writeFileAtomic(target, `${JSON.stringify(signReport(report, secretKey), null, 2)}\n`);
}
