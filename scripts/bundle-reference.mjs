// Part of `npm run build`: bundles the compiled reference adapter into one CommonJS module, dist/reference-impl/adapter.bundle.cjs,
// and the host driver into one CommonJS file, dist/harness/driver/host.bundle.cjs (with the list of files it was built from).
// Every driver of the bundled reference journal loads both; one module instead of thirty saves a fifth of a driver's
// start-up (node's ES module loader pays per file); both in CommonJS spare a driver the ES module loader altogether
// (the host require()s a .cjs adapter): a sixth of a driver's start-up CPU. The adapter bundle carries better-sqlite3's
// JavaScript too (reference-impl/sqlite-module.ts says when a driver uses it); its compiled addon stays in its package.
// The sources and their tsc output stay as they are.
import { build } from 'rolldown';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCodeCache } from './code-cache-reference.mjs';

const dist = fileURLToPath(new URL('../dist/reference-impl/', import.meta.url));
const driver = fileURLToPath(new URL('../dist/harness/driver/', import.meta.url));

const adapter = await build({
  input: `${dist}adapter.js`,
  // Node builtins stay imports; `bindings` is only better-sqlite3's addon lookup, which the bundled JS never takes
  // (it is used only with the addon's path) and the installed package keeps for itself.
  external: [/^node:/, 'bindings'],
  platform: 'node',
  logLevel: 'warn',
  plugins: [bundledSqlite()],
  output: { file: `${dist}adapter.bundle.cjs`, format: 'cjs', exports: 'named', sourcemap: true },
});
// A bundle that silently went back to requiring the package would only be slower: say so instead.
const adapterModules = adapter.output.flatMap((chunk) => (chunk.type === 'chunk' ? chunk.moduleIds : []));
if (!adapterModules.some((id) => id.endsWith('/better-sqlite3/lib/database.js'))) {
  throw new Error('bundle-reference: better-sqlite3/lib/database.js is not in adapter.bundle.cjs (did bundled-sqlite.js move?)');
}

writeCodeCache(`${dist}adapter.bundle.cjs`);

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

/** Resolves the adapter's `./bundled-sqlite.js` to better-sqlite3's own JS, with the version of the package it came from. */
function bundledSqlite() {
  const id = '\0ejc-bundled-sqlite';
  const manifest = createRequire(`${dist}sqlite-module.js`).resolve('better-sqlite3/package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8'));
  return {
    name: 'ejc-bundled-sqlite',
    resolveId(source, importer) {
      return source === './bundled-sqlite.js' && importer?.endsWith('/reference-impl/sqlite-module.js') ? id : null;
    },
    load(loading) {
      if (loading !== id) return null;
      return `import Database from ${JSON.stringify(manifest.replace(/package\.json$/, 'lib/index.js'))};\nexport const bundledSqlite = { Database, version: ${JSON.stringify(version)} };\n`;
    },
  };
}
