// The in-editor mocha suite (test/extension/*.suite.ts) inside code-server's real extension host.
import assert from 'node:assert/strict';
import { recordFigure, runExtensionTests } from './harness';

describe('the in-editor suite in code-server (extensionDevelopmentPath + extensionTestsPath)', function () {
  it('passes every test of test/extension', async function () {
    const outcome = await runExtensionTests();
    recordFigure('in-editor suite, code-server, end to end', outcome.elapsedMs, 'ms');
    const activation = /activation: ([\d.]+) ms/.exec(outcome.results);
    if (activation) recordFigure('activation time (development path, code-server)', Number(activation[1]), 'ms');
    assert.equal(outcome.exitCode, 0, `the in-editor suite failed (exit ${outcome.exitCode}):\n${outcome.results}`);
    assert.match(outcome.results, /^0 failing$/m, outcome.results);
    assert.ok((outcome.results.match(/^pass: /gm) ?? []).length >= 8, outcome.results);
  });
});
