// The terms a SQLite file's full-text indexes hold, read through the indexes themselves, and a canary kept as trigrams.
import Database from 'better-sqlite3';
import { CANARY_PREFIX } from '../../shared/secrets/canary-nonce.js';

const SCHEMA_HINT = /using\s+fts[345]/i;

/**
 * Every term of every FTS5 and FTS3/4 table of `db` (a copy, never the journal's own connection), as the index returns
 * it (lowercased by its tokenizer), or null when it has none. The index's pages keep terms prefix-compressed; fts5vocab
 * and fts4aux tables, made in the copy's temp schema, read them whole.
 */
export function ftsTerms(db: Database.Database): string[] | null {
  const virtual = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'").all() as Array<{ name: string; sql: string }>;
  const terms: string[] = [];
  virtual.forEach(({ name, sql }, i) => {
    const module = /\bUSING\s+(fts5|fts4|fts3)\b/i.exec(sql)?.[1]?.toLowerCase();
    if (module === undefined) return;
    const vocab = `temp.ejc_terms_${i}`;
    try {
      db.exec(module === 'fts5' ? `CREATE VIRTUAL TABLE ${vocab} USING fts5vocab(main, ${quoted(name)}, 'row')` : `CREATE VIRTUAL TABLE ${vocab} USING fts4aux(main, ${quoted(name)})`);
      for (const term of db.prepare(`SELECT DISTINCT term FROM ${vocab}`).pluck().iterate() as Iterable<unknown>) {
        if (typeof term === 'string') terms.push(term);
      }
    } catch {
      // a tokenizer this build lacks, or a torn index: the byte scans still read its pages
    }
  });
  return terms.length === 0 ? null : terms;
}

/**
 * The full-text terms of a SQLite main-file image (`data`, as read), opened in memory from the bytes: no file is
 * touched. Only when its schema names an FTS module, so a journal without one costs a text search. What its -wal holds
 * and has not checkpointed is not in the image (hidden-copies.ts reads a copy of both).
 */
export function imageTerms(data: Buffer, folded: string): string[] | null {
  if (!SCHEMA_HINT.test(folded)) return null;
  let db: Database.Database | null = null;
  try {
    // A WAL database's header says so (file format versions 2), which an in-memory image cannot be opened with: the
    // copy says rollback journal (1) instead, its pages are the same.
    const image = Buffer.from(data);
    if (image[18] === 2) image[18] = 1;
    if (image[19] === 2) image[19] = 1;
    db = new Database(image);
    return ftsTerms(db);
  } catch {
    return null; // torn or not a database after all
  } finally {
    db?.close();
  }
}

/**
 * True when every three characters of the canary's random part (lowercased) are a term: a trigram index (FTS5's
 * `trigram` tokenizer, kept for substring search) holds the whole value as overlapping three-character terms. The random
 * part opens with a head of its own (canary-nonce.ts), so a sibling canary's trigrams do not cover it.
 */
export function heldAsTrigrams(terms: ReadonlySet<string>, canary: string): boolean {
  if (terms.size === 0 || !canary.startsWith(CANARY_PREFIX)) return false;
  const random = canary.slice(CANARY_PREFIX.length).toLowerCase();
  if (random.length < 12) return false;
  for (let i = 0; i + 3 <= random.length; i++) if (!terms.has(random.slice(i, i + 3))) return false;
  return true;
}

/** `name` as a quoted SQL identifier. */
export function quoted(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
