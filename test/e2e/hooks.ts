// Mocha global fixture for the real-editor tests: every run starts with an empty artifacts folder, so
// that the screenshots and figures there all come from the last run.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export function mochaGlobalSetup(): void {
  const artifacts = join(__dirname, 'artifacts');
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
}
