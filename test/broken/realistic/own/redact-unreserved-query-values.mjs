// An author ending a credential query value at the first character outside RFC 3986's unreserved set: a percent-escaped token (a base64 SAS signature, ?access_token=ab%2Bcd) keeps its tail.
import { makeRedactor, REDACTED } from './secret-redact.mjs';

const r = makeRedactor({ unreservedQueryValues: true });
export const { redactArgs, redactValue, redactString, isCredentialKey, isCredentialParam } = r;
export { REDACTED };
