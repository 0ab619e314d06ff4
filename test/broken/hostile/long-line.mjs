// Hostile: answers hello, then answers the next request with LINE_MIB MiB (default 100) without a newline.
import { createInterface } from 'node:readline';
import { writeFully } from './paths.mjs';

const capabilities = { crashPoints: [], faults: [], tierMode: 'conservative', sessions: false, seeding: false, outerTransactionProbe: false };
const chunk = Buffer.alloc(1024 * 1024, 'x');
createInterface({ input: process.stdin }).on('line', (line) => {
  const req = JSON.parse(line);
  if (req.op === 'hello') {
    writeFully(1, `${JSON.stringify({ type: 'response', id: req.id, ok: true, result: { name: 'hostile-long-line', version: '1.0.0', protocolVersion: 1, capabilities } })}\n`);
    return;
  }
  writeFully(1, '{"type":"response","id":2,"ok":true,"result":{"padding":"');
  // Blocks on the full pipe until the harness refuses the line and kills the driver.
  for (let i = 0; i < Number(process.env.LINE_MIB ?? 100); i++) writeFully(1, chunk);
  writeFully(1, '"}}\n');
});
