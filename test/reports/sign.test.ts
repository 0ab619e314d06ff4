// Signed reports: DSSE PAE per its spec, keys interoperable with node:crypto, and every forgery refused by the trust check.
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign as nodeSign, verify as nodeVerify } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dir } from 'tmp-promise';
import { describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../reports/fingerprint.js';
import type { Report } from '../../reports/schema.js';
import { sealReport } from '../../reports/seal.js';
import { pae, signEnvelope, type Envelope } from '../../reports/sign-dsse.js';
import { generateKeyPair, keyId, privateKeyPem, publicKeyPem, readPrivateKey, readPublicKey } from '../../reports/sign-keys.js';
import { INTOTO_PAYLOAD_TYPE, PREDICATE_TYPE, signReport, STATEMENT_TYPE, verifySignedReport } from '../../reports/sign-statement.js';
import { buildReport, clone } from './fixture.js';

function reseal(r: Report): Report {
  const { outcomeDigest: _o, contentHash: _c, ...rest } = r;
  return sealReport(rest);
}

function statementOf(envelope: Envelope): { _type: string; subject: Array<{ name: string; digest: { sha256: string } }>; predicateType: string; predicate: unknown } {
  return JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as never;
}

const signer = generateKeyPair();
const stranger = generateKeyPair();

describe('DSSE and keys', () => {
  it('encodes PAE exactly as the DSSE protocol\'s test vector', () => {
    expect(Buffer.from(pae('http://example.com/HelloWorld', Buffer.from('hello world'))).toString()).toBe('DSSEv1 29 http://example.com/HelloWorld 11 hello world');
    // LEN counts bytes, not characters.
    expect(Buffer.from(pae('t', Buffer.from('é'))).toString()).toBe('DSSEv1 1 t 2 é');
  });

  it('writes PEM keys node:crypto reads, and reads keys node:crypto writes; signatures verify across both', async () => {
    const message = pae(INTOTO_PAYLOAD_TYPE, Buffer.from('{}'));
    const ours = signEnvelope(INTOTO_PAYLOAD_TYPE, Buffer.from('{}'), signer.secretKey);
    const nodePublic = createPublicKey(publicKeyPem(signer.publicKey));
    expect(nodePublic.asymmetricKeyType).toBe('ed25519');
    expect(nodeVerify(null, message, nodePublic, Buffer.from(ours.signatures[0]!.sig, 'base64'))).toBe(true);
    expect(createPrivateKey(privateKeyPem(signer.secretKey)).asymmetricKeyType).toBe('ed25519');

    const tmp = await dir({ unsafeCleanup: true });
    try {
      const pair = generateKeyPairSync('ed25519');
      const keyPath = join(tmp.path, 'node.key');
      const pubPath = join(tmp.path, 'node.pub');
      writeFileSync(keyPath, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
      writeFileSync(pubPath, pair.publicKey.export({ type: 'spki', format: 'pem' }));
      const secret = await readPrivateKey(keyPath);
      const envelope = signEnvelope(INTOTO_PAYLOAD_TYPE, Buffer.from('{}'), secret);
      expect(nodeVerify(null, message, pair.publicKey, Buffer.from(envelope.signatures[0]!.sig, 'base64'))).toBe(true);
      const nodeSig = nodeSign(null, message, pair.privateKey).toString('base64');
      expect(Buffer.from(envelope.signatures[0]!.sig, 'base64').toString('base64')).toBe(nodeSig);
      expect(keyId(await readPublicKey(pubPath))).toBe(envelope.signatures[0]!.keyid);

      writeFileSync(join(tmp.path, 'open.key'), privateKeyPem(secret), { mode: 0o644 });
      await expect(readPrivateKey(join(tmp.path, 'open.key'))).rejects.toThrow(/readable by others \(mode 644\): run chmod 600/);
      writeFileSync(join(tmp.path, 'rsa.pub'), generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }));
      await expect(readPublicKey(join(tmp.path, 'rsa.pub'))).rejects.toMatchObject({ code: 'key_invalid', message: expect.stringMatching(/another key type/) });
      await expect(readPublicKey(join(tmp.path, 'open.key'))).rejects.toThrow(/no "-----BEGIN PUBLIC KEY-----" block/);
    } finally {
      await tmp.cleanup();
    }
  });
});

describe('signed reports', () => {
  it('are an in-toto Statement v1 whose subject is the implementation fingerprint and whose predicate is the report', () => {
    const report = buildReport();
    const envelope = signReport(report, signer.secretKey);
    expect(envelope.payloadType).toBe('application/vnd.in-toto+json');
    const statement = statementOf(envelope);
    expect(statement._type).toBe(STATEMENT_TYPE);
    expect(statement.predicateType).toBe(PREDICATE_TYPE);
    expect(statement.subject[0]).toEqual({ name: 'ejc-implementation:reference-sqlite', digest: { sha256: report.fingerprint.digest } });
    expect(statement.subject.slice(1).map((s) => s.name)).toEqual(report.fingerprint.files.map((f) => f.path));
    expect(statement.predicate).toEqual(report);
    expect(verifySignedReport(report, envelope, [signer.publicKey])).toEqual({ ok: true, trustedBy: [keyId(signer.publicKey)], problems: [] });
    // Any one trusted key suffices, and URL-safe base64 is accepted as DSSE requires.
    const urlSafe = { ...envelope, payload: envelope.payload.replace(/\+/g, '-').replace(/\//g, '_'), signatures: envelope.signatures.map((s) => ({ ...s, sig: s.sig.replace(/\+/g, '-').replace(/\//g, '_') })) };
    expect(verifySignedReport(report, urlSafe, [stranger.publicKey, signer.publicKey]).ok).toBe(true);
  });

  it('refuses a forged, relabelled or re-fingerprinted report even when resealed, and a signature by another key', () => {
    const report = buildReport();
    const envelope = signReport(report, signer.secretKey);
    const forged = clone(report);
    forged.scenarios[0]!.trials[0]!.assertions[0]!.actual = 2;
    forged.scenarios[0]!.trials[0]!.assertions[0]!.passed = true;
    expect(verifySignedReport(reseal(forged), envelope, [signer.publicKey]).problems).toEqual([expect.stringMatching(/^statement\.predicate: the signed report differs from this one/)]);

    const relabelled = clone(report);
    relabelled.implementation.name = 'acme-journal';
    expect(verifySignedReport(reseal(relabelled), envelope, [signer.publicKey]).problems).toEqual([
      expect.stringMatching(/^statement\.predicate: the signed report differs/),
      expect.stringMatching(/^statement\.subject: names ejc-implementation:reference-sqlite [0-9a-f]{64}, this report's fingerprint is/),
    ]);

    const refingerprinted = clone(report);
    refingerprinted.fingerprint = fingerprintOf([{ path: 'ejc:reference-impl/adapter.js', role: 'adapter', sha256: '9'.repeat(64), bytes: 1 }]);
    const problems = verifySignedReport(reseal(refingerprinted), envelope, [signer.publicKey]).problems;
    expect(problems).toHaveLength(2);
    expect(problems[1]).toContain(`this report's fingerprint is ${refingerprinted.fingerprint.digest}`);

    // The forger signs their own statement: it verifies only with their key, never with the auditor's.
    const selfSigned = signReport(reseal(forged), stranger.secretKey);
    expect(verifySignedReport(reseal(forged), selfSigned, [signer.publicKey]).problems).toEqual(['envelope.signatures: none of 1 signature(s) verifies with a trusted key']);
    expect(verifySignedReport(reseal(forged), selfSigned, [stranger.publicKey]).ok).toBe(true);
  });

  it('refuses an envelope whose payload, payload type or signature was altered', () => {
    const report = buildReport();
    const envelope = signReport(report, signer.secretKey);
    const otherType = { ...envelope, payloadType: 'application/json' };
    expect(verifySignedReport(report, otherType, [signer.publicKey]).problems).toEqual(['envelope.signatures: none of 1 signature(s) verifies with a trusted key']);
    const statement = statementOf(envelope);
    const swapped = { ...envelope, payload: Buffer.from(JSON.stringify({ ...statement, predicateType: 'x' })).toString('base64') };
    expect(verifySignedReport(report, swapped, [signer.publicKey]).ok).toBe(false);
    const sig = Buffer.from(envelope.signatures[0]!.sig, 'base64');
    sig[5] = sig[5]! ^ 1;
    expect(verifySignedReport(report, { ...envelope, signatures: [{ sig: sig.toString('base64') }] }, [signer.publicKey]).ok).toBe(false);
    expect(verifySignedReport(report, { payload: '***', payloadType: INTOTO_PAYLOAD_TYPE, signatures: [] }, [signer.publicKey]).problems).toEqual(['envelope.payload: not base64']);
    expect(verifySignedReport(report, { hello: 1 }, [signer.publicKey]).problems[0]).toMatch(/^envelope: not a DSSE envelope/);
    // Signed by the trusted key, but not an in-toto statement of this project.
    const notAStatement = signEnvelope(INTOTO_PAYLOAD_TYPE, Buffer.from('{"_type":"https://in-toto.io/Statement/v0.1"}'), signer.secretKey);
    expect(verifySignedReport(report, notAStatement, [signer.publicKey]).problems[0]).toMatch(/^statement: not an in-toto Statement v1/);
  });
});
