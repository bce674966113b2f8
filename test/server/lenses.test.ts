// `Ask:` code lenses: none until the extension says what the engines answer
// (ENGINE_ANSWERS_NOTIFICATION), then one per question kind above each declaration whose kind an
// engine lists in `subjects`, running `assay.ask` with AskLensArguments.
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
    assert.equal(lens.command!.title, `Ask: ${args[0]!.kind}`);
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

  it('after the engine-answers notification: one lens per kind the engines answer for the declaration kind', async function () {
    const params: EngineAnswersParams = {
      engines: [
        { name: 'behaviour', answers: ['holds', 'outcomes', 'sensitive'], subjects: ['action', 'state'] },
        { name: 'values', answers: ['evaluate', 'holds'], subjects: ['part', 'action'] },
      ],
    };
    await client.connection.sendNotification(ENGINE_ANSWERS_NOTIFICATION, params);
    await client.until('a code lens refresh', () => client.codeLensRefreshes === 1);
    const line = (needle: string) => positionOf(droneText, needle).line;
    const behaviour = ['holds', 'outcomes', 'sensitive', 'evaluate'];
    const expected = [
      ...['evaluate', 'holds'].map((k) => `${line('part def Drone')}: Ask: ${k} Drone::Drone`),
      ...['evaluate', 'holds'].map((k) => `${line('part battery')}: Ask: ${k} Drone::Drone::battery`),
      ...behaviour.map((k) => `${line('action def Fly')}: Ask: ${k} Drone::Drone::Fly`),
      ...behaviour.map((k) => `${line('perform action fly')}: Ask: ${k} Drone::Drone::fly`),
      ...['holds', 'outcomes', 'sensitive'].map((k) => `${line('state def Modes')}: Ask: ${k} Drone::Modes`),
      ...['holds', 'outcomes', 'sensitive'].map((k) => `${line('state idle')}: Ask: ${k} Drone::Modes::idle`),
      ...['holds', 'outcomes', 'sensitive'].map((k) => `${line('state flying')}: Ask: ${k} Drone::Modes::flying`),
      ...['evaluate', 'holds'].map((k) => `${line('part drone')}: Ask: ${k} Drone::drone`),
    ];
    assert.deepEqual(summary(await lenses()), expected);
  });

  it('follows edits and a new notification (no engines: no lenses)', async function () {
    await client.change(droneUri, droneText.replace('part drone : Drone;', 'part drone : Drone;\n    action def Land;'));
    const titles = summary(await lenses());
    assert.ok(titles.includes(`${positionOf(droneText, 'part drone').line + 1}: Ask: sensitive Drone::Land`), JSON.stringify(titles));
    await client.connection.sendNotification(ENGINE_ANSWERS_NOTIFICATION, { engines: [] });
    await client.until('a second refresh', () => client.codeLensRefreshes === 2);
    assert.deepEqual(await lenses(), []);
  });
});
