// Runs every <folder>/*<suffix> script in its own process, one after another, so that figures do not
// disturb each other. Used by `npm run bench` (bench/*.bench.ts) and `npm run fuzz` (test/fuzz/*.fuzz.ts);
// further arguments pick a subset by name: `npm run bench -- protocol parser`.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const [folder, suffix, ...wanted] = process.argv.slice(2);
if (!folder || !suffix) {
  process.stderr.write('usage: tsx scripts/run-each.ts <folder> <suffix> [name…]\n');
  process.exit(2);
}
const dir = join(__dirname, '..', folder);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(suffix))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();
let failed = 0;
for (const file of files) {
  process.stdout.write(`\n== ${file}\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(dir, file)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exitCode = failed === 0 ? 0 : 1;
