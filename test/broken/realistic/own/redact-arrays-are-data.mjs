// The author's redactor, with arrays taken for plain data ("lists of ids, lines and hosts hold no credentials").
import { makeRedactor, REDACTED } from './author-redact.mjs';

const r = makeRedactor({ arraysAreData: true, userinfoThroughFirstAt: false });
export const { redactArgs, redactValue, redactString, isCredentialKey, isCredentialParam } = r;
export { REDACTED };
