// An author comparing credential key names as written: "authorization" is masked, the Authorization header (and AUTHORIZATION) every HTTP client sends is not.
import { makeRedactor, REDACTED } from './secret-redact.mjs';

const r = makeRedactor({ caseSensitiveKeys: true });
export const { redactArgs, redactValue, redactString, isCredentialKey, isCredentialParam } = r;
export { REDACTED };
