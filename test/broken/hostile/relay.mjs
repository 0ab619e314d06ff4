// Hostile: a journal behind a relay. The driver forwards the protocol over a socket to a server process it started
// in another session; the server keeps the journal open when the relay dies, as a real daemon outlives its client.
// Flags: --clear-env          start the server with an empty environment (only PATH and EJC_TEST_TAG, for the tests)
//        --orphan             the server double-forks, so no live parent links it to the driver
//        --declare-external   announce the server in hello as `capabilities.externalState`
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const flags = new Set(process.argv.slice(2));
const SERVER = fileURLToPath(new URL('./relay-server.mjs', import.meta.url));
const path = join(tmpdir(), `hostile-relay-${process.pid}.sock`);
const env = flags.has('--clear-env') ? { PATH: process.env.PATH ?? '/usr/bin:/bin', EJC_TEST_TAG: process.env.EJC_TEST_TAG ?? '' } : process.env;

const listener = createServer((socket) => {
  listener.close(); // also removes the socket file
  createInterface({ input: socket }).on('line', (line) => process.stdout.write(`${declare(line)}\n`));
  const input = createInterface({ input: process.stdin });
  input.on('line', (line) => socket.write(`${line}\n`));
  // A graceful close is forwarded as such; a dead relay just vanishes.
  input.on('close', () => socket.end('{"type":"relay-close"}\n'));
  socket.on('close', () => process.exit(0));
});
listener.listen(path, () => {
  const args = [SERVER, path, ...(flags.has('--orphan') ? ['--orphan'] : [])];
  spawn(process.execPath, args, { detached: true, env, stdio: ['ignore', 'ignore', 'inherit'] });
});

function declare(line) {
  if (!flags.has('--declare-external')) return line;
  const msg = JSON.parse(line);
  if (msg.type === 'response' && msg.ok && msg.result?.capabilities) msg.result.capabilities.externalState = 'hostile relay server (test)';
  return JSON.stringify(msg);
}
