// A report as an in-toto Statement v1 (subject: the implementation fingerprint; predicate: the report) in a signed DSSE envelope.
import { z } from 'zod';
import { canonicalJson } from '../shared/canonical-json.js';
import type { Report } from './schema.js';
import { signEnvelope, verifyEnvelope, type Envelope } from './sign-dsse.js';

/** The DSSE payload type of an in-toto Statement. */
export const INTOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
/** This project's predicate: the predicate is an ejc conformance report, exactly as the report file holds it. */
export const PREDICATE_TYPE = 'https://effect-journal-conformance.invalid/ConformanceReport/v1';

const Statement = z.object({
  _type: z.literal(STATEMENT_TYPE),
  subject: z.array(z.object({ name: z.string(), digest: z.record(z.string(), z.string()) })).min(1),
  predicateType: z.string(),
  predicate: z.unknown(),
});

/**
 * The subject: first the fingerprint as a whole (name `ejc-implementation:<name>`), then every file in it
 * by path, so an in-toto policy can match the implementation by its aggregate digest or file by file.
 */
export function subjectOf(report: Report): Array<{ name: string; digest: { sha256: string } }> {
  return [
    { name: `ejc-implementation:${report.implementation.name}`, digest: { sha256: report.fingerprint.digest } },
    ...report.fingerprint.files.map((f) => ({ name: f.path, digest: { sha256: f.sha256 } })),
  ];
}

/** Signs a report: the envelope's payload is the RFC 8785 canonical JSON of its Statement. */
export function signReport(report: Report, secretKey: Uint8Array): Envelope {
  const statement = { _type: STATEMENT_TYPE, subject: subjectOf(report), predicateType: PREDICATE_TYPE, predicate: report };
  return signEnvelope(INTOTO_PAYLOAD_TYPE, Buffer.from(canonicalJson(statement), 'utf8'), secretKey);
}

export interface SignatureCheck {
  ok: boolean;
  trustedBy: string[];
  problems: string[];
}

/**
 * Checks that `envelope` is a signature by a trusted key over exactly this report: the signature over
 * the PAE, the payload type, the statement's shape and predicate type, the predicate equal to the
 * report, and the subject equal to the report's fingerprint.
 */
export function verifySignedReport(report: Report, envelope: unknown, trusted: readonly Uint8Array[]): SignatureCheck {
  const checked = verifyEnvelope(envelope, INTOTO_PAYLOAD_TYPE, trusted);
  const problems = [...checked.problems];
  if (problems.length > 0 || checked.body === null) return { ok: false, trustedBy: checked.trustedBy, problems };
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(checked.body).toString('utf8'));
  } catch {
    return { ok: false, trustedBy: checked.trustedBy, problems: ['envelope.payload: the signed payload is not JSON'] };
  }
  const statement = Statement.safeParse(value);
  if (!statement.success) return { ok: false, trustedBy: checked.trustedBy, problems: [`statement: not an in-toto Statement v1 (${statement.error.issues[0]?.path.join('.') ?? ''}: ${statement.error.issues[0]?.message ?? ''})`] };
  const s = statement.data;
  if (s.predicateType !== PREDICATE_TYPE) problems.push(`statement.predicateType: is ${s.predicateType}, expected ${PREDICATE_TYPE}`);
  if (safeCanonical(s.predicate) !== canonicalJson(report)) problems.push(`statement.predicate: the signed report differs from this one (signed contentHash ${describeHash(s.predicate)}, this report's ${report.contentHash})`);
  if (canonicalJson(s.subject) !== canonicalJson(subjectOf(report))) problems.push(`statement.subject: names ${s.subject[0]?.name ?? '?'} ${s.subject[0]?.digest['sha256'] ?? '?'}, this report's fingerprint is ${report.fingerprint.digest}`);
  return { ok: problems.length === 0, trustedBy: checked.trustedBy, problems };
}

/** Where a report's envelope lives by default: `report.json` → `report.dsse.json`. */
export function envelopePathFor(reportPath: string): string {
  return reportPath.endsWith('.json') ? `${reportPath.slice(0, -'.json'.length)}.dsse.json` : `${reportPath}.dsse.json`;
}

function safeCanonical(value: unknown): string | null {
  try {
    return canonicalJson(value);
  } catch {
    return null;
  }
}

function describeHash(predicate: unknown): string {
  const hash = (predicate as { contentHash?: unknown } | null)?.contentHash;
  return typeof hash === 'string' ? hash : 'none';
}
