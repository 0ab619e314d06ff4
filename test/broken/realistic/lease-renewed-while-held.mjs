// A wire-protocol journal that keeps renewing a writer lease while it waits at an announced crash point ("so no other
// process takes the store over while the harness decides"): it takes `writer.lease` in the journal directory at open,
// and while held rewrites it every 10 ms. It sends nothing while held, and its rows are where the point's name says,
// but it is not blocked: a kill there lands after writes the point's name does not have. Built as the reference
// served by ejc's host, behind the author's own message loop. With `--same-bytes` every renewal writes the same line
// (a lease that names only its holder): its contents never change while held, only its times do.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const HOST = new URL('../../../dist/harness/driver/host.js', import.meta.url).pathname;
const REFERENCE = new URL('../../../dist/reference-impl/adapter.js', import.meta.url).pathname;

const SAME = process.argv.includes('--same-bytes');
let dir = null;
let renewing = null;
const journal = spawn(process.execPath, [HOST, '--module', REFERENCE], { stdio: ['pipe', 'pipe', 'inherit'] });
createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.type === 'request' && message.op === 'open') {
    dir = message.params.dir;
    renew(0);
  }
  if (message.type === 'resume' && renewing !== null) {
    clearInterval(renewing);
    renewing = null;
  }
  journal.stdin.write(`${line}\n`);
});
createInterface({ input: journal.stdout }).on('line', (line) => {
  process.stdout.write(`${line}\n`);
  if (JSON.parse(line).type === 'crashpoint' && dir !== null) {
    let n = 0;
    renewing = setInterval(() => renew((n += 1)), 10);
  }
});
function renew(n) {
  writeFileSync(join(dir, 'writer.lease'), SAME ? `pid ${process.pid}\n` : `pid ${process.pid} renewal ${n}\n`);
}
process.stdin.on('end', () => journal.stdin.end());
journal.on('exit', (code) => process.exit(code ?? 0));
