// Hostile: a write-behind journal. Each run prepare is acknowledged once a daemon it started holds the row in memory;
// the row itself leaves the database until the next operation flushes it back ("lazily"), and a restarted driver
// fetches what the daemon buffered. The daemon double-forks, calls setsid, clears its environment and holds no file
// under the journal directory (see memory-daemon-server.mjs), so only PID-namespace confinement kills it with the
// driver. A real crash of the machine's journal process and its daemon loses the prepare: a journal bug.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { createReferenceJournal } from '../../../dist/reference-impl/index.js';

const SERVER = fileURLToPath(new URL('./memory-daemon-server.mjs', import.meta.url));
const OPS = ['open', 'close', 'prepare', 'settle', 'gate', 'reconcile', 'resolve', 'runTerminal', 'sessionRead', 'sessionSweep', 'checkpoint', 'listEffects', 'files', 'fault', 'seed'];

export function createJournal(options) {
  const reference = createReferenceJournal({ crashpoint: options.crashpoint, options: options.options, tierMode: options.options.tierMode ?? 'reconciling' });
  let daemon = null;
  let db = null;
  let pending = [];
  // The lazy flush: whatever the daemon buffered goes back into the database before the next operation.
  const flush = async () => {
    if (pending.length === 0) return;
    const insert = db.prepare(`INSERT OR IGNORE INTO run_effects (${Object.keys(pending[0]).join(', ')}) VALUES (${Object.keys(pending[0]).map((k) => `@${k}`).join(', ')})`);
    for (const row of pending) insert.run(row);
    await daemon.request({ op: 'drop', ids: pending.map((r) => r.id) });
    pending = [];
  };
  const journal = Object.create(null);
  for (const key of OPS) {
    journal[key] = async (p) => {
      if (db !== null && key !== 'close') await flush();
      return reference[key](p);
    };
  }
  journal.open = async (p) => {
    const out = reference.open(p);
    db = new Database(out.files[0]);
    db.pragma('busy_timeout = 5000');
    daemon = await daemonFor(realpathSync(p.dir));
    // Recovery: the rows a killed driver left in the daemon's memory.
    pending = (await daemon.request({ op: 'get' })).rows;
    await flush();
    return out;
  };
  journal.prepare = async (p) => {
    await flush();
    const verdict = await reference.prepare(p);
    if (verdict.verdict !== 'proceed' || p.correlation.kind !== 'run') return verdict;
    const row = db.prepare('SELECT * FROM run_effects WHERE id = ?').get(Number(verdict.effectId));
    await daemon.request({ op: 'put', row });
    db.prepare('DELETE FROM run_effects WHERE id = ?').run(row.id);
    pending = [row];
    return verdict;
  };
  journal.close = async () => {
    if (db !== null) await flush();
    db?.close();
    daemon?.socket.end();
    return reference.close();
  };
  return Object.assign(journal, { name: 'hostile:memory-daemon', version: reference.version, capabilities: reference.capabilities });
}

// One daemon per journal directory, found by a name derived from the directory: connect, or start it and retry.
async function daemonFor(dir) {
  const name = `ejc-hostile-memd-${createHash('sha256').update(dir).digest('hex').slice(0, 24)}`;
  for (let attempt = 0; attempt < 500; attempt++) {
    const client = await tryConnect(name);
    if (client !== null) return client;
    if (attempt === 0) spawn(process.execPath, [SERVER, name, '--detach'], { detached: true, stdio: 'ignore', cwd: '/' }).unref();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the memory daemon ${name} never came up`);
}

function tryConnect(name) {
  return new Promise((resolve) => {
    const socket = connect(`\0${name}`);
    socket.once('error', () => resolve(null));
    socket.once('connect', () => {
      const waiting = [];
      createInterface({ input: socket }).on('line', (line) => waiting.shift()?.(JSON.parse(line)));
      resolve({
        socket,
        request: (msg) => new Promise((answer) => {
          waiting.push(answer);
          socket.write(`${JSON.stringify(msg)}\n`);
        }),
      });
    });
  });
}
