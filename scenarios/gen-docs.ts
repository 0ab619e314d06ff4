// `npm run gen:docs`: rewrites docs/scenarios.md from the catalog (a test fails while it is stale).
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { listScenarios } from './catalog.js';
import { SCENARIOS_DOC_FILE, renderScenariosDoc } from './scenarios-doc.js';

// Compiled to dist/scenarios/, so the package root is two levels up.
const target = fileURLToPath(new URL(`../../${SCENARIOS_DOC_FILE}`, import.meta.url));
await writeFile(target, renderScenariosDoc(listScenarios()));
process.stdout.write(`wrote ${target}\n`);
