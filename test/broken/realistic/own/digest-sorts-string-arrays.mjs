// The author's digest: a list of strings (tags, scopes, recipients) is a set, so it is sorted "to make the digest stable".
import * as original from '../../../../dist/reference-impl/digest.js';
import { digestWith, rebuild } from './digest-projection.mjs';

const { argsDigest, argsCanonical, outputMappingDigest, isCurrentDigest, idempotencyKeyFor } = digestWith(original, (projection) => rebuild(projection, { list: (a) => (a.length > 0 && a.every((x) => typeof x === 'string') ? [...a].sort() : a) }));
export { argsDigest, argsCanonical, outputMappingDigest, isCurrentDigest, idempotencyKeyFor };
