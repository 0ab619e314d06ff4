// `npm run gen:docs`: rewrites docs/scenarios.md and docs/renamed-scenarios.md from the code (a test fails while either is stale).
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { listScenarios } from './catalog.js';
import { RENAMED_DOC_FILE, renamedScenariosDoc } from './renamed.js';
import { SCENARIOS_DOC_FILE, renderScenariosDoc } from './scenarios-doc.js';

// Compiled to dist/scenarios/, so the package root is two levels up.
const target = fileURLToPath(new URL(`../../${SCENARIOS_DOC_FILE}`, import.meta.url));
await writeFile(target, renderScenariosDoc(listScenarios()));
process.stdout.write(`wrote ${target}\n`);
const renamedTarget = fileURLToPath(new URL(`../../${RENAMED_DOC_FILE}`, import.meta.url));
await writeFile(renamedTarget, renamedScenariosDoc());
process.stdout.write(`wrote ${renamedTarget}\n`);
