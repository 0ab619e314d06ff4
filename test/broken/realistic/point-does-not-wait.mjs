// A wire-protocol journal whose loop writes each `crashpoint` line as a notice and goes straight on ("the harness kills
// us there if it wants to"), reading the `resume` later as a no-op: announced points never block, so no kill planned at
// one lands where its name says. Built as the reference served by ejc's host, behind the author's own message loop.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const HOST = new URL('../../../dist/harness/driver/host.js', import.meta.url).pathname;
const REFERENCE = new URL('../../../dist/reference-impl/adapter.js', import.meta.url).pathname;

const journal = spawn(process.execPath, [HOST, '--module', REFERENCE], { stdio: ['pipe', 'pipe', 'inherit'] });
createInterface({ input: process.stdin }).on('line', (line) => {
  if (JSON.parse(line).type !== 'resume') journal.stdin.write(`${line}\n`);
});
createInterface({ input: journal.stdout }).on('line', (line) => {
  process.stdout.write(`${line}\n`);
  const message = JSON.parse(line);
  if (message.type === 'crashpoint') journal.stdin.write(`${JSON.stringify({ type: 'resume', seq: message.seq })}\n`);
});
process.stdin.on('end', () => journal.stdin.end());
journal.on('exit', (code) => process.exit(code ?? 0));
