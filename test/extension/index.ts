// Entry the workbench loads as `extensionTestsPath`: runs every *.suite.js next to it with mocha inside
// the real extension host, and rejects when a test fails (the workbench then exits with code 1).
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface MochaRunner {
  on(event: 'pass' | 'fail' | 'pending', listener: (test: { fullTitle(): string }, error?: Error) => void): void;
}
interface MochaInstance {
  addFile(file: string): void;
  run(done: (failures: number) => void): MochaRunner;
}
type MochaConstructor = new (options: { ui: string; timeout: number; color: boolean; reporter: string }) => MochaInstance;

export function run(): Promise<void> {
  // mocha 12 is an ES module; its CommonJS entry is lib/mocha.cjs (kept external by the bundler).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Mocha = require('mocha/lib/mocha.cjs') as MochaConstructor;
  const mocha = new Mocha({ ui: 'bdd', timeout: 30_000, color: false, reporter: 'spec' });
  for (const file of readdirSync(__dirname).filter((name) => name.endsWith('.suite.js')).sort()) {
    mocha.addFile(join(__dirname, file));
  }
  const lines: string[] = [];
  const report = join(__dirname, 'results.txt');
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      lines.push(`${failures} failing`);
      writeFileSync(report, lines.join('\n') + '\n');
      if (failures > 0) reject(new Error(`${failures} in-editor test(s) failed`));
      else resolve();
    });
    runner.on('pass', (test) => lines.push(`pass: ${test.fullTitle()}`));
    runner.on('pending', (test) => lines.push(`skip: ${test.fullTitle()}`));
    runner.on('fail', (test, error) => lines.push(`FAIL: ${test.fullTitle()}\n  ${error?.stack ?? error?.message ?? ''}`));
  });
}
