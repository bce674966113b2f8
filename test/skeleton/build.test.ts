import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

describe('build', () => {
  it('produces the CLI bundle in dist/', () => {
    assert.ok(existsSync(join(__dirname, '..', '..', 'dist', 'cli.js')), 'dist/cli.js is missing: run npm run build');
  });
});
