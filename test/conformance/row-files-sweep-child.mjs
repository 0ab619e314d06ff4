// One process of row-files-sweeps.test.ts: opens the row-files journal on a directory, waits for the go file, then
// sweeps the session's captured rows (or, as the reader, lists the session's rows until told to stop), and prints JSON.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createJournal } from '../broken/realistic/row-files-journal.mjs';

const [role, dir, sessionId] = process.argv.slice(2);
const journal = createJournal({ crashpoint: () => {} });
journal.open({ dir });
const captured = JSON.parse(readFileSync(join(dir, 'captured.json'), 'utf8'));
process.stdout.write('ready\n');
// Spins rather than sleeps: both sweepers leave the barrier within microseconds of each other.
while (!existsSync(join(dir, 'go'))) {}
if (role === 'sweep') {
  process.stdout.write(`${JSON.stringify(journal.sessionSweep({ sessionId, captured }))}\n`);
} else {
  const seen = new Set();
  while (!existsSync(join(dir, 'stop'))) seen.add(journal.listEffects().effects.filter((e) => e.scope.kind === 'session' && e.scope.sessionId === sessionId).length);
  process.stdout.write(`${JSON.stringify({ seen: [...seen].sort((a, b) => a - b) })}\n`);
}
