// The CLI tests ask dist/ (the CLI and the engine it spawns): build it when an output they need is
// missing, as `npm test` does before them.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** Runs scripts/build.mjs unless every one of `outputs` (file names under dist/) is there. */
export function buildIfMissing(...outputs: string[]): void {
  if (outputs.every((o) => existsSync(join(ROOT, 'dist', o)))) return;
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  assert.equal(built.status, 0, 'npm run build failed');
}
