// The append-only log journal (examples/log-journal) with its author's housekeeping: swept results leave runs of '0's in
// the log for good, so an open that finds the log idle (every process that opened it closed it again: its opened and
// closed records balance, so nobody holds an offset into it) compacts it, dropping erased result members and torn
// fragments, and rewrites it with one writeFileSync ("one write(), so the log is never half-rewritten"). The O_TRUNC
// lands at the file's open, before that write: a restart killed between them leaves an empty log, and every row,
// unresolved ones included, is gone (§10).
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createJournal as createLogJournal } from '../../../examples/log-journal/journal.mjs';

const LOG_FILE = 'effects.log';
const ERASED = /^0+$/;

export function createJournal(options) {
  const inner = createLogJournal(options);
  let path = null;
  return {
    ...inner,
    name: 'realistic:log-compact-in-place',
    open(p) {
      path = join(p.dir, LOG_FILE);
      compact(path);
      appendFileSync(path, `${JSON.stringify({ t: 'opened' })}\n`);
      return inner.open(p);
    },
    close() {
      if (path !== null) appendFileSync(path, `${JSON.stringify({ t: 'closed' })}\n`);
      path = null;
      return inner.close();
    },
  };
}

// Rewrites the log without what no reader needs: a result member a sweep erased, a fragment a killed writer tore.
function compact(path) {
  if (!existsSync(path)) return;
  const lines = readFileSync(path, 'utf8').split('\n');
  let changed = false;
  let users = 0;
  const kept = [];
  for (const line of lines.slice(0, -1)) {
    const record = parse(line);
    if (record?.t === 'opened') users += 1;
    if (record?.t === 'closed') users -= 1;
    if (record === null) {
      changed = true;
      continue;
    }
    if (typeof record.r === 'string' && ERASED.test(record.r)) {
      const { r: _erased, ...rest } = record;
      kept.push(JSON.stringify(rest));
      changed = true;
    } else kept.push(line);
  }
  if (lines.at(-1) !== '') changed = true;
  if (changed && users === 0) writeFileSync(path, kept.map((l) => `${l}\n`).join(''));
}

function parse(line) {
  try {
    const record = JSON.parse(line);
    return record !== null && typeof record === 'object' && typeof record.t === 'string' ? record : null;
  } catch {
    return null;
  }
}
