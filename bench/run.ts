// Runs every bench/*.bench.ts in its own process, one after another, so figures do not disturb each other.
// `npm run bench` builds first; pass names to run a subset: `npm run bench -- protocol parser`.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const dir = __dirname;
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();
let failed = 0;
for (const file of files) {
  process.stdout.write(`\n== ${file}\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(dir, file)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exitCode = failed === 0 ? 0 : 1;
