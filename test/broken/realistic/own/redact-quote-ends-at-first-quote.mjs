// The author's redactor, with a quoted secret value taken to end at the first quote, escaped or not.
import { makeRedactor, REDACTED } from './author-redact.mjs';

const r = makeRedactor({ arraysAreData: false, userinfoThroughFirstAt: false, quoteEndsAtFirstQuote: true });
export const { redactArgs, redactValue, redactString, isCredentialKey, isCredentialParam } = r;
export { REDACTED };
