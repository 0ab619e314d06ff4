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
