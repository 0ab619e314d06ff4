// Hostile: answers hello, leaves a setsid grandchild behind, then never answers another request.
import { leaveSetsidGrandchild } from './grandchild.mjs';
import { createInterface } from 'node:readline';
import { writeFully } from './paths.mjs';

leaveSetsidGrandchild();
const capabilities = { crashPoints: [], faults: [], tierMode: 'conservative', sessions: false, seeding: false, outerTransactionProbe: false };
createInterface({ input: process.stdin }).on('line', (line) => {
  const req = JSON.parse(line);
  if (req.op === 'hello') {
    writeFully(1, `${JSON.stringify({ type: 'response', id: req.id, ok: true, result: { name: 'hostile-hang', version: '1.0.0', protocolVersion: 1, capabilities } })}\n`);
  }
  // Every other request: silence, forever.
});
