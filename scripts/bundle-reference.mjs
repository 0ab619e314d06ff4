// Part of `npm run build`: bundles the compiled reference adapter into one module, dist/reference-impl/adapter.bundle.js.
// Every driver of the bundled reference journal loads it; one module instead of thirty saves a fifth of a driver's
// start-up (node's ES module loader pays per file). The sources and their tsc output stay as they are.
import { build } from 'rolldown';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/reference-impl/', import.meta.url));

await build({
  input: `${dist}adapter.js`,
  // better-sqlite3 is a native addon, required at run time; node builtins stay imports.
  external: ['better-sqlite3', /^node:/],
  platform: 'node',
  logLevel: 'warn',
  output: { file: `${dist}adapter.bundle.js`, format: 'esm', sourcemap: true },
});
