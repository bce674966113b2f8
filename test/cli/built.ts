// The CLI tests ask dist/ (the CLI and the engine it spawns): build it when an output they need is
// missing, as `npm test` does before them.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const DIST = join(ROOT, 'dist');

/** Runs scripts/build.mjs unless every one of `outputs` (file names under dist/) is there. */
export function buildIfMissing(...outputs: string[]): void {
  if (outputs.every((o) => existsSync(join(DIST, o)))) return;
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  assert.equal(built.status, 0, 'npm run build failed');
}

/**
 * A copy of one of dist/'s code-cached entry points in the folder `copy` (emptied first): `<name>.js`
 * and the bundle it runs, `<name>-main.js`, with `cache` as `<name>-main.cache` (none when null).
 * Returns the copied `<name>.js`.
 */
export function distCopy(copy: string, name: 'cli' | 'server', cache: Buffer | null): string {
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  for (const f of [`${name}.js`, `${name}-main.js`]) copyFileSync(join(DIST, f), join(copy, f));
  if (cache) writeFileSync(join(copy, `${name}-main.cache`), cache);
  return join(copy, `${name}.js`);
}
