// Hostile adapter: the reference journal, flooding stderr at load (FLOOD_MIB MiB, default 10: past the harness's 8 MiB log limit) before it answers anything.
import { writeFully } from './paths.mjs';

const chunk = Buffer.alloc(1024 * 1024, 'flood of stderr bytes without much meaning\n');
const mib = Number(process.env.FLOOD_MIB ?? 10);
for (let i = 0; i < mib; i++) writeFully(2, chunk);

export { createJournal, default } from '../../../dist/reference-impl/adapter.js';
