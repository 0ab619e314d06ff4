// A wire-protocol journal that gives the harness a moment at each announced point and then goes on by itself ("if it
// wanted to kill us there it has had 25 ms"): it forwards the `crashpoint` line, resumes its own journal 25 ms later
// without waiting for the harness's `resume`, and drops that resume when it comes. A harness that looks and resumes
// within those 25 ms takes the journal's answer for the answer to its resume. Built as the reference behind the author's loop.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const HOST = new URL('../../../dist/harness/driver/host.js', import.meta.url).pathname;
const REFERENCE = new URL('../../../dist/reference-impl/adapter.js', import.meta.url).pathname;
const GRACE_MS = 25;

const journal = spawn(process.execPath, [HOST, '--module', REFERENCE], { stdio: ['pipe', 'pipe', 'inherit'] });
createInterface({ input: process.stdin }).on('line', (line) => {
  if (JSON.parse(line).type !== 'resume') journal.stdin.write(`${line}\n`);
});
createInterface({ input: journal.stdout }).on('line', (line) => {
  process.stdout.write(`${line}\n`);
  const message = JSON.parse(line);
  if (message.type === 'crashpoint') setTimeout(() => journal.stdin.write(`${JSON.stringify({ type: 'resume', seq: message.seq })}\n`), GRACE_MS);
});
process.stdin.on('end', () => journal.stdin.end());
journal.on('exit', (code) => process.exit(code ?? 0));
