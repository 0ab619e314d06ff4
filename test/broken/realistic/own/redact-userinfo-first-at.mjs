// The author's redactor, with URL userinfo taken to end at the first '@' (a password may hold one; the host follows the last).
import { makeRedactor, REDACTED } from './author-redact.mjs';

const r = makeRedactor({ arraysAreData: false, userinfoThroughFirstAt: true });
export const { redactArgs, redactValue, redactString, isCredentialKey, isCredentialParam } = r;
export { REDACTED };
