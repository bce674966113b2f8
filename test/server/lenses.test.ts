// Code lenses: none until the extension says what the engines answer (ENGINE_ANSWERS_NOTIFICATION),
// then above each declaration directly in a package whose kind an engine lists in `subjects`: `Ask…`
// and the one or two kinds that fit it and are answered, running `assay.ask` with AskLensArguments.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ENGINE_ANSWERS_NOTIFICATION, type AskLensArguments, type EngineAnswersParams } from '../../src/server/requests';
import { LanguageClient, positionOf, repoRoot, type CodeLens } from './lspClient';

const workspace = join(repoRoot, 'test', 'fixtures', 'server', 'cross');
const droneUri = pathToFileURL(join(workspace, 'drone.sysml')).href;
const droneText = readFileSync(join(workspace, 'drone.sysml'), 'utf8');

/** `line: title subject` for each lens, in order. */
function summary(lenses: CodeLens[]): string[] {
  return lenses.map((lens) => {
    const args = lens.command!.arguments as AskLensArguments[];
    assert.equal(lens.command!.command, 'assay.ask');
    assert.equal(args.length, 1);
    assert.equal(args[0]!.uri, droneUri);
    assert.equal(lens.command!.title, args[0]!.kind ? `Ask: ${args[0]!.kind}` : 'Ask…');
    return `${lens.range.start.line}: ${lens.command!.title} ${args[0]!.subject}`;
  });
}

describe('language server: Ask code lenses', function () {
  let client: LanguageClient;

  before(async function () {
    client = await LanguageClient.start({ workspace, codeLensRefresh: true });
    await client.open(droneUri, droneText);
  });

  after(async function () {
    await client?.stop();
  });

  async function lenses(): Promise<CodeLens[]> {
    return (await client.request<CodeLens[] | null>('textDocument/codeLens', { textDocument: { uri: droneUri } })) ?? [];
  }

  it('shows no lenses before the engines are known', async function () {
    assert.deepEqual(await lenses(), []);
  });

  it('after the engine-answers notification: Ask… and the kinds that fit, on top declarations only (not their features)', async function () {
    const params: EngineAnswersParams = {
      engines: [
        { name: 'behaviour', answers: ['holds', 'outcomes', 'sensitive'], subjects: ['action', 'state'] },
        { name: 'values', answers: ['evaluate', 'holds'], subjects: ['part', 'action'] },
      ],
    };
    await client.connection.sendNotification(ENGINE_ANSWERS_NOTIFICATION, params);
    await client.until('a code lens refresh', () => client.codeLensRefreshes === 1);
    const line = (needle: string) => positionOf(droneText, needle).line;
    const expected = [
      // Performs an action: a behaviour; the engines answer holds (not outcomes) about parts.
      `${line('part def Drone')}: Ask… Drone::Drone`, `${line('part def Drone')}: Ask: holds Drone::Drone`,
      `${line('state def Modes')}: Ask… Drone::Modes`, `${line('state def Modes')}: Ask: holds Drone::Modes`, `${line('state def Modes')}: Ask: outcomes Drone::Modes`,
      // A usage with no behaviour of its own.
      `${line('part drone')}: Ask… Drone::drone`, `${line('part drone')}: Ask: evaluate Drone::drone`,
    ];
    assert.deepEqual(summary(await lenses()), expected);
  });

  it('follows edits and a new notification (no engines: no lenses)', async function () {
    await client.change(droneUri, droneText.replace('part drone : Drone;', 'part drone : Drone;\n    action def Land;'));
    const titles = summary(await lenses());
    const land = positionOf(droneText, 'part drone').line + 1;
    assert.deepEqual(titles.filter((t) => t.endsWith('Drone::Land')), [`${land}: Ask… Drone::Land`, `${land}: Ask: holds Drone::Land`, `${land}: Ask: outcomes Drone::Land`]);
    await client.connection.sendNotification(ENGINE_ANSWERS_NOTIFICATION, { engines: [] });
    await client.until('a second refresh', () => client.codeLensRefreshes === 2);
    assert.deepEqual(await lenses(), []);
  });
});
