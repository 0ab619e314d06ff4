// Ed25519 signing keys as PEM files: PKCS#8 private keys (written 0600) and SPKI public keys, per RFC 8410.
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { constants } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { EjcError } from '../shared/errors.js';

/** A freshly generated Ed25519 key pair. */
export function generateKeyPair(): { secretKey: Uint8Array; publicKey: Uint8Array } {
  return ed25519.keygen();
}

/** The PEM text of a private key: PKCS#8 wrapping the 32-byte Ed25519 seed (RFC 8410 §7). */
export function privateKeyPem(secretKey: Uint8Array): string {
  return pem('PRIVATE KEY', concat(PKCS8_PREFIX, secretKey));
}

/** The PEM text of a public key: SubjectPublicKeyInfo with the Ed25519 OID (RFC 8410 §4). */
export function publicKeyPem(publicKey: Uint8Array): string {
  return pem('PUBLIC KEY', concat(SPKI_PREFIX, publicKey));
}

/** A key's id: hex SHA-256 of its SPKI DER encoding. A hint for choosing a key, never a reason to trust one. */
export function keyId(publicKey: Uint8Array): string {
  return bytesToHex(sha256(concat(SPKI_PREFIX, publicKey)));
}

/** The public key of a private key. */
export function publicKeyOf(secretKey: Uint8Array): Uint8Array {
  return ed25519.getPublicKey(secretKey);
}

/** Writes a new key pair to `<prefix>.key` (mode 0600) and `<prefix>.pub`; never overwrites, never prints the private key. */
export async function writeKeyPair(prefix: string): Promise<{ privatePath: string; publicPath: string; keyid: string }> {
  const { secretKey, publicKey } = generateKeyPair();
  const privatePath = `${prefix}.key`;
  const publicPath = `${prefix}.pub`;
  await writeNew(privatePath, privateKeyPem(secretKey), 0o600);
  await writeNew(publicPath, publicKeyPem(publicKey), 0o644);
  return { privatePath, publicPath, keyid: keyId(publicKey) };
}

/** Reads a private key file; refuses one that others can read, as ssh does. */
export async function readPrivateKey(path: string): Promise<Uint8Array> {
  let mode: number;
  try {
    mode = (await stat(path)).mode;
  } catch (error) {
    throw new EjcError('key_invalid', `cannot read private key ${path}: ${describe(error)}`, { cause: error });
  }
  if ((mode & 0o077) !== 0) {
    throw new EjcError('key_invalid', `private key ${path} is readable by others (mode ${(mode & 0o777).toString(8)}): run chmod 600 ${path}`);
  }
  return parseDer(await readText(path, 'private'), path, 'PRIVATE KEY', PKCS8_PREFIX);
}

/** Reads a public key file (an SPKI PEM as written by ejc keygen or `openssl pkey -pubout`). */
export async function readPublicKey(path: string): Promise<Uint8Array> {
  return parseDer(await readText(path, 'public'), path, 'PUBLIC KEY', SPKI_PREFIX);
}

// DER headers for Ed25519 (OID 1.3.101.112): the only variable part is the 32 key bytes after them.
const PKCS8_PREFIX = Uint8Array.from([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]);
const SPKI_PREFIX = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]);

function parseDer(text: string, path: string, label: string, prefix: Uint8Array): Uint8Array {
  // The file's contents never appear in an error: a private key must not be echoed.
  const match = new RegExp(`-----BEGIN ${label}-----([A-Za-z0-9+/=\\s]+)-----END ${label}-----`).exec(text);
  const kind = label === 'PRIVATE KEY' ? 'an Ed25519 private key (PKCS#8 PEM, as ejc keygen writes)' : 'an Ed25519 public key (SPKI PEM, as ejc keygen writes)';
  if (match === null) throw new EjcError('key_invalid', `${path} is not ${kind}: no "-----BEGIN ${label}-----" block`);
  const der = Uint8Array.from(Buffer.from(match[1]!.replace(/\s+/g, ''), 'base64'));
  if (der.length !== prefix.length + 32 || !prefix.every((b, i) => der[i] === b)) {
    throw new EjcError('key_invalid', `${path} is not ${kind}: its ${label} block holds another key type or encoding`);
  }
  return der.slice(prefix.length);
}

async function readText(path: string, which: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new EjcError('key_invalid', `cannot read ${which} key ${path}: ${describe(error)}`, { cause: error });
  }
}

async function writeNew(path: string, text: string, mode: number): Promise<void> {
  let handle;
  try {
    handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  } catch (error) {
    const exists = (error as NodeJS.ErrnoException).code === 'EEXIST';
    throw new EjcError(exists ? 'usage' : 'key_invalid', exists ? `${path} already exists: keygen never overwrites a key; choose another --out prefix or remove it` : `cannot create ${path}: ${describe(error)}`, { cause: error });
  }
  try {
    // The umask may only remove bits; chmod makes the mode exact.
    await handle.chmod(mode);
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function pem(label: string, der: Uint8Array): string {
  const b64 = Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
}
