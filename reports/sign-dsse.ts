// DSSE v1 envelopes (secure-systems-lab/dsse): the pre-authentication encoding, Ed25519 signing and verification.
import { ed25519 } from '@noble/curves/ed25519.js';
import { z } from 'zod';
import { keyId } from './sign-keys.js';

/** The DSSE JSON envelope; unknown fields are ignored, as the envelope spec requires of consumers. */
export const Envelope = z.object({
  payload: z.string(),
  payloadType: z.string(),
  signatures: z.array(z.object({ keyid: z.string().optional(), sig: z.string() })),
});
export type Envelope = z.infer<typeof Envelope>;

/** PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, LEN the decimal byte length. */
export function pae(payloadType: string, body: Uint8Array): Uint8Array {
  const type = Buffer.from(payloadType, 'utf8');
  const head = Buffer.from(`DSSEv1 ${type.length} `, 'utf8');
  return Buffer.concat([head, type, Buffer.from(` ${body.length} `, 'utf8'), body]);
}

/** Signs `body` as `payloadType` with an Ed25519 secret key: one signature, keyid the key's SPKI SHA-256. */
export function signEnvelope(payloadType: string, body: Uint8Array, secretKey: Uint8Array): Envelope {
  const sig = ed25519.sign(pae(payloadType, body), secretKey);
  return {
    payload: Buffer.from(body).toString('base64'),
    payloadType,
    signatures: [{ keyid: keyId(ed25519.getPublicKey(secretKey)), sig: Buffer.from(sig).toString('base64') }],
  };
}

export interface EnvelopeCheck {
  /** The decoded payload, when the envelope could be decoded. */
  body: Uint8Array | null;
  /** The ids of the trusted keys whose signature verified. */
  trustedBy: string[];
  problems: string[];
}

/**
 * Verifies an envelope against trusted Ed25519 public keys as the DSSE protocol says: decode, check each
 * signature over PAE against every trusted key (the keyid is only a hint and is not relied on), accept
 * when at least one verifies, and only then look at the payload type.
 */
export function verifyEnvelope(value: unknown, payloadType: string, trusted: readonly Uint8Array[]): EnvelopeCheck {
  const parsed = Envelope.safeParse(value);
  if (!parsed.success) return { body: null, trustedBy: [], problems: [`envelope: not a DSSE envelope (${parsed.error.issues[0]?.message ?? 'bad shape'} at ${parsed.error.issues[0]?.path.join('.') ?? '?'})`] };
  const envelope = parsed.data;
  const body = decodeBase64(envelope.payload);
  if (body === null) return { body: null, trustedBy: [], problems: ['envelope.payload: not base64'] };
  const message = pae(envelope.payloadType, body);
  const trustedBy = new Set<string>();
  for (const signature of envelope.signatures) {
    const sig = decodeBase64(signature.sig);
    if (sig === null || sig.length !== 64) continue;
    for (const key of trusted) {
      if (safeVerify(sig, message, key)) trustedBy.add(keyId(key));
    }
  }
  const problems: string[] = [];
  if (trustedBy.size === 0) problems.push(`envelope.signatures: none of ${envelope.signatures.length} signature(s) verifies with a trusted key`);
  else if (envelope.payloadType !== payloadType) problems.push(`envelope.payloadType: is ${JSON.stringify(envelope.payloadType)}, expected ${payloadType}`);
  return { body, trustedBy: [...trustedBy].sort(), problems };
}

// Standard or URL-safe base64 (DSSE verifiers must accept both), strictly: anything else is not base64.
function decodeBase64(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/\-_]*={0,2}$/.test(text) || /[+/]/.test(text) && /[-_]/.test(text)) return null;
  return Uint8Array.from(Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
}

function safeVerify(sig: Uint8Array, message: Uint8Array, key: Uint8Array): boolean {
  try {
    return ed25519.verify(sig, message, key, { zip215: false });
  } catch {
    return false;
  }
}
