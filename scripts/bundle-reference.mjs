// Part of `npm run build`: bundles the compiled reference adapter into one CommonJS module, dist/reference-impl/adapter.bundle.cjs,
// and the host driver into one CommonJS file, dist/harness/driver/host.bundle.cjs (with the list of files it was built from).
// Every driver of the bundled reference journal loads both; one module instead of thirty saves a fifth of a driver's
// start-up (node's ES module loader pays per file); both in CommonJS spare a driver the ES module loader altogether
// (the host require()s a .cjs adapter): a sixth of a driver's start-up CPU.
// The sources and their tsc output stay as they are.
import { build } from 'rolldown';
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/reference-impl/', import.meta.url));
const driver = fileURLToPath(new URL('../dist/harness/driver/', import.meta.url));

await build({
  input: `${dist}adapter.js`,
  // better-sqlite3 is a native addon, required at run time; node builtins stay imports.
  external: ['better-sqlite3', /^node:/],
  platform: 'node',
  logLevel: 'warn',
  output: { file: `${dist}adapter.bundle.cjs`, format: 'cjs', exports: 'named', sourcemap: true },
});

const host = await build({
  input: `${driver}host.js`,
  external: [/^node:/],
  platform: 'node',
  logLevel: 'warn',
  output: { file: `${driver}host.bundle.cjs`, format: 'cjs', sourcemap: true },
});
// What harness/driver/host-bundle.ts checks the bundle's age against: every compiled file rolldown put into it.
const inputs = host.output.flatMap((chunk) => (chunk.type === 'chunk' ? chunk.moduleIds : [])).filter((id) => id.startsWith('/'));
writeFileSync(`${driver}host.bundle.inputs.json`, `${JSON.stringify(inputs.map((id) => relative(driver, id)).sort(), null, 1)}\n`);
