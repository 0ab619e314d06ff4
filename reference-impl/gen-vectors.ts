// `npm run gen:vectors`: rewrites docs/digest-vectors.json from the reference journal (a test fails while it is stale).
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { VECTORS_FILE, digestVectorsText } from './digest-vectors.js';

// Compiled to dist/reference-impl/, so the package root is two levels up.
const target = fileURLToPath(new URL(`../../${VECTORS_FILE}`, import.meta.url));
await writeFile(target, digestVectorsText());
process.stdout.write(`wrote ${target}\n`);
