// Which scenario must fail (failed, never inconclusive) for each secrets red-team journal, and the clean journals that
// must pass every scenario designed for them.
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { catchesOf, realisticTarget, type RealisticTarget } from './realistic-target.js';

const realistic = (await import(new URL('../broken/realistic/index.mjs', import.meta.url).href)) as { SECRET: string[]; realisticModule: (name: string) => string };

/** The notes journal's audit log (own/secret-notes-journal.mjs AUDIT_LOG), its directories a day old before the run. */
export const NOTES_STATE = join(tmpdir(), 'ejc-secret-notes-journal');
const AUDIT_LOG = join(NOTES_STATE, 'state', 'audit', 'calls', 'calls.log');

// Each journal's class and the scenario designed for it (the default run before this red team: see its commit).
const CATCHES: Readonly<Record<string, readonly string[]>> = {
  // Redaction shapes: the digest moves with the credential (§14's equality oracle), so the credential-only change refuses.
  'secret-header-case-sensitive': ['secrets.credential-only-change.shapes'],
  'secret-query-value-unreserved': ['secrets.credential-only-change.shapes'],
  'secret-userinfo-password-only': ['secrets.credential-only-change.shapes'],
  // Transformed copies: found by the byte scans' case-folded and inflated views (harness/world/canary-forms.ts).
  'secret-fts-search-index': ['secrets.args-never-on-disk'],
  'secret-gzip-request-copy': ['secrets.args-never-on-disk'],
  // A trigram index (every three characters a term) and a hash kept as a fingerprint: read through fts5vocab, and the
  // hashes of each canary looked for in the file's hex and base64 runs and its blobs (harness/secrets/hidden-copies.ts).
  'secret-fts-trigram-index': ['secrets.args-never-on-disk'],
  'secret-token-fingerprint': ['secrets.args-never-on-disk'],
  // A marker file named by a token's hash: the scans read every path under the journal's directory too.
  'secret-credential-named-file': ['secrets.args-never-on-disk'],
  // A note written only on the path a call takes when it does not commit.
  'secret-notes-attention-note': ['secrets.unresolved-never-on-disk'],
  // An append to an old file in old directories four levels down: the world scan reads small subtrees whole.
  'secret-notes-deep-audit-log': ['secrets.args-never-on-disk'],
};

// The log exists, in directories last changed a day ago, as an earlier run of the journal left it.
function oldAuditLog(): void {
  mkdirSync(dirname(AUDIT_LOG), { recursive: true });
  writeFileSync(AUDIT_LOG, '');
  const day = new Date(Date.now() - 86_400_000);
  for (let p = AUDIT_LOG; p.startsWith(NOTES_STATE); p = dirname(p)) utimesSync(p, day, day);
}

export type SecretTarget = RealisticTarget;

/** One catalogue entry per secrets journal: its module, what must be in place first, and evidence that each designed scenario failed. */
export const SECRET_TARGETS: readonly SecretTarget[] = realistic.SECRET.map((name) => {
  const scenarios = catchesOf(CATCHES, name, 'test/conformance/secret-targets.ts');
  const setup = name === 'secret-notes-deep-audit-log' ? { before: oldAuditLog, after: () => rmSync(NOTES_STATE, { recursive: true, force: true }) } : {};
  return realisticTarget(realistic.realisticModule(name), name, scenarios, { setup });
});

/** The from-scratch notes journal without its slips. */
export const NOTES_CLEAN = fileURLToPath(new URL('../fixtures/adapters/secret-notes-journal.mjs', import.meta.url));
