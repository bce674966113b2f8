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

  it('every setting\'s default passes its own schema checks (the Settings UI shows no error for an untouched setting)', () => {
    const raw = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { default?: unknown; format?: string; pattern?: string }> } };
    };
    for (const [key, setting] of Object.entries(raw.contributes.configuration.properties)) {
      if (typeof setting.default !== 'string') continue;
      assert.notEqual(setting.format === 'uri' && setting.default === '', true, `${key}: "" is not a URI (the Settings UI says "URI expected")`);
      if (setting.pattern) assert.match(setting.default, new RegExp(setting.pattern), `${key}: the default does not match its pattern`);
    }
  });
});
