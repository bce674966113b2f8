// The in-editor suite under @vscode/test-electron: a desktop VS Code (Electron) downloaded from
// update.code.visualstudio.com. Where that cannot be downloaded (these machines have no internet)
// it reports why and counts as skipped; code-server runs the same suite (test/e2e/extension-host.e2e.ts).
//   npx tsx test/extension/electron.ts      exit 0 passed, 1 failed, 0 with "skipped:" when unavailable
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { downloadAndUnzipVSCode, runTests } from '../e2e/.tools/node_modules/@vscode/test-electron';
import { buildExtensionTests, fixtureWorkspace, repoRoot, toolsRoot } from '../e2e/harness';

export type ElectronOutcome = { skipped: string } | { exitCode: number };

export async function runUnderTestElectron(): Promise<ElectronOutcome> {
  let executable: string;
  try {
    executable = await downloadAndUnzipVSCode({ version: '1.100.3', cachePath: join(toolsRoot, '.vscode-test'), timeout: 15_000 });
  } catch (error) {
    return { skipped: `desktop VS Code 1.100.3 cannot be downloaded here (${error instanceof Error ? error.message : String(error)})` };
  }
  const entry = await buildExtensionTests();
  const dir = mkdtempSync(join(tmpdir(), 'assay-electron-'));
  try {
    const workspace = join(dir, 'workspace');
    cpSync(fixtureWorkspace, workspace, { recursive: true });
    const exitCode = await runTests({
      vscodeExecutablePath: executable,
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: entry,
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--user-data-dir', join(dir, 'ud')],
    }).catch((error: unknown) => {
      console.error(`@vscode/test-electron: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    });
    return { exitCode };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  void runUnderTestElectron().then((outcome) => {
    if ('skipped' in outcome) {
      console.log(`skipped: ${outcome.skipped}`);
      return;
    }
    console.log(outcome.exitCode === 0 ? 'in-editor suite passed under @vscode/test-electron' : 'in-editor suite FAILED under @vscode/test-electron');
    process.exitCode = outcome.exitCode === 0 ? 0 : 1;
  });
}
