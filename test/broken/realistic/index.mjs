// The realistic broken journals, by name: each is a journal author's plausible bug that the fixed matrix passes.
export const REALISTIC = [
  'digest-sorts-top-level',
  'digest-replacer-drops-nested',
  'redaction-skips-arrays',
  'userinfo-through-first-at',
  'scope-key-concatenated',
  'key-renewed-after-a-day',
  'stale-prepare-abandoned',
  'open-expires-old-commits',
  'sweep-whole-captured-turns',
  'result-bound-truncates',
];

/** The adapter module of a realistic broken journal. */
export function realisticModule(name) {
  return new URL(`./${name}.mjs`, import.meta.url).pathname;
}

/** The edge red team's realistic broken journals (sessions, erasure, checkpoints, the v5 digest, KXM leases), by name. */
export const EDGE = [
  'edge-args-kept-base64',
  'edge-checkpoint-frame-count',
  'edge-kxm-fence-per-tool',
  'edge-kxm-lease-strict-expiry',
  'edge-open-skips-idle-checkpoint',
  'edge-own-html-safe-json',
  'edge-own-terminal-soft-delete',
  'edge-own-utf8-key-order',
  'edge-secure-delete-fast',
  'edge-session-result-in-audit',
  'edge-sweep-through-captured-turn',
  'edge-terminal-archives-rows',
];

/** The secrets red team's realistic broken journals (redaction shapes, transformed copies, notes, deep logs), by name. */
export const SECRET = [
  'secret-header-case-sensitive',
  'secret-query-value-unreserved',
  'secret-userinfo-password-only',
  'secret-fts-search-index',
  'secret-gzip-request-copy',
  'secret-notes-attention-note',
  'secret-notes-deep-audit-log',
];
