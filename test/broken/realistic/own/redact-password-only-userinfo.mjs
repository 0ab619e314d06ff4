// An author masking what new URL() calls the password: a token-only userinfo (https://<token>@github.com/...) is a "username" and is kept.
import { makeRedactor, REDACTED } from './secret-redact.mjs';

const r = makeRedactor({ passwordOnlyUserinfo: true });
export const { redactArgs, redactValue, redactString, isCredentialKey, isCredentialParam } = r;
export { REDACTED };
