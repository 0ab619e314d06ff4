// `ejc keygen`: creates an Ed25519 key pair for signing reports; the private key never leaves its 0600 file.
import { resolve } from 'node:path';
import { writeKeyPair } from '../reports/sign-keys.js';
import { flag, parseCommand, stringValue } from './args.js';
import { EXIT } from './exit-codes.js';
import { helpText } from './help.js';

/** Runs `ejc keygen [--out <prefix>]` and returns the exit code. */
export async function keygenCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand('keygen', argv, { out: { type: 'string' } }, { min: 0, max: 0 });
  if (flag(parsed, 'help')) {
    process.stdout.write(helpText('keygen'));
    return EXIT.ok;
  }
  const prefix = resolve(stringValue(parsed, 'out') ?? 'ejc-signing');
  const { privatePath, publicPath, keyid } = await writeKeyPair(prefix);
  process.stdout.write(
    `wrote private key ${privatePath} (mode 0600: keep it secret, e.g. in your CI's secret store)\n` +
      `wrote public key  ${publicPath} (publish it: auditors pass it to ejc verify --trust)\n` +
      `keyid ${keyid}\n`,
  );
  return EXIT.ok;
}
