// The extension manifest's menus: VS Code silently shows nothing for a menu entry whose command is not
// declared, so every entry must name a command of contributes.commands (registration itself is checked
// inside the real extension host by test/extension/commands.suite.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Manifest {
  contributes: { commands: { command: string; title: string }[]; menus: Record<string, { command?: string; when?: string }[]> };
  activationEvents?: string[];
}

const manifest = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as Manifest;
const declared = new Set(manifest.contributes.commands.map((c) => c.command));

describe('extension manifest', () => {
  it('every menu entry names a declared command', () => {
    for (const [menu, entries] of Object.entries(manifest.contributes.menus)) {
      for (const entry of entries) {
        if (entry.command) assert.ok(declared.has(entry.command), `${menu}: ${entry.command} is not in contributes.commands`);
      }
    }
  });

  it('offers Submit Task Graph on JSON files in the explorer and the editor', () => {
    for (const menu of ['explorer/context', 'editor/title/context', 'editor/context']) {
      const entry = manifest.contributes.menus[menu]?.find((e) => e.command === 'assay.tasks.submitTaskGraph');
      assert.ok(entry, `${menu} lacks Submit Task Graph`);
      assert.match(entry.when ?? '', /resourceExtname == \.json/);
    }
  });
});
