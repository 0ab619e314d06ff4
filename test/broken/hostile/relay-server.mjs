// The server behind relay.mjs: connects to the relay's socket, runs the reference journal for it and keeps the
// journal open until told `relay-close`, whatever happens to the relay. With --orphan it first re-spawns itself in
// a new session and exits (a double fork), so it has no live parent in the driver's tree.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { referenceHost } from './paths.mjs';

const [path] = process.argv.slice(2);
if (process.argv.includes('--orphan')) {
  spawn(process.execPath, [process.argv[1], path], { detached: true, stdio: 'inherit' }).unref();
  process.exit(0);
}

const socket = connect(path);
const journal = spawn(process.execPath, referenceHost(), { stdio: ['pipe', 'pipe', 'inherit'] });
journal.stdout.pipe(socket);
createInterface({ input: socket }).on('line', (line) => {
  if (line.includes('"relay-close"')) journal.stdin.end();
  else journal.stdin.write(`${line}\n`);
});
// A dead relay closes the socket without `relay-close`: the journal stays open, holding its files.
socket.on('error', () => undefined);
journal.on('exit', () => process.exit(0));
