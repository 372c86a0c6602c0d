/* global URL */
// The plain-JavaScript benches use the shared TypeScript helpers of bench/lib as compiled by `npm run bench`
// (tsc -p tsconfig.test.json writes them to out/bench/lib).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = join(fileURLToPath(new URL('../..', import.meta.url)), 'out', 'bench', 'lib');

/** The compiled bench/lib/<name>.ts; says how to build it when it is missing. */
export function benchLib(name) {
  const file = join(OUT, `${name}.js`);
  if (!existsSync(file)) throw new Error(`${file} is missing: run the bench through \`npm run bench -- <name>\` (it compiles bench/lib first) or \`npx tsc -p tsconfig.test.json\``);
  return createRequire(import.meta.url)(file);
}
