// The same in-editor suite under @vscode/test-electron, where a desktop VS Code can be downloaded.
import assert from 'node:assert/strict';
import { runUnderTestElectron } from '../extension/electron';

describe('the in-editor suite under @vscode/test-electron (desktop VS Code)', function () {
  it('passes every test of test/extension, or is skipped where VS Code cannot be downloaded', async function () {
    const outcome = await runUnderTestElectron();
    if ('skipped' in outcome) {
      console.log(`      skipped: ${outcome.skipped}`);
      this.skip();
    }
    assert.equal((outcome as { exitCode: number }).exitCode, 0, 'the in-editor suite failed under @vscode/test-electron');
  });
});
