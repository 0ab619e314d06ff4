// The daemon behind memory-daemon.mjs: keeps buffered prepares in memory and serves them over an abstract unix socket.
// Started with --detach it re-spawns itself in a new session with an empty environment and exits (a double fork), so
// no parent, group, session, environment mark or open file under the journal directory links it to the driver.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';

const [name] = process.argv.slice(2);
// Only PATH and the test's own tag survive (the tests find what they started by it; the harness never looks at it).
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', EJC_TEST_TAG: process.env.EJC_TEST_TAG ?? '' };
if (process.argv.includes('--detach')) {
  spawn(process.execPath, [process.argv[1], name], { detached: true, stdio: 'ignore', env, cwd: '/' }).unref();
  process.exit(0);
}

/** Buffered rows by effect id: what a real crash of this daemon would lose. */
const rows = new Map();
const IDLE_MS = 30_000;
let idle = setTimeout(() => process.exit(0), IDLE_MS);
const server = createServer((socket) => {
  createInterface({ input: socket }).on('line', (line) => {
    clearTimeout(idle);
    idle = setTimeout(() => process.exit(0), IDLE_MS);
    const msg = JSON.parse(line);
    if (msg.op === 'put') rows.set(msg.row.id, msg.row);
    if (msg.op === 'drop') for (const id of msg.ids) rows.delete(id);
    socket.write(`${JSON.stringify({ rows: msg.op === 'get' ? [...rows.values()] : [] })}\n`);
  });
  socket.on('error', () => undefined);
});
// Another daemon already serves this journal: this one is not needed.
server.on('error', () => process.exit(0));
server.listen(`\0${name}`);
