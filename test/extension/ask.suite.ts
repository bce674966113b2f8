// The question flow inside the real extension host, through the commands and the extension's API:
// asking with unsaved edits, the violated-holds problem and its quick fix, asking again, cancelling a
// long run through the protocol, the Runs view commands, Restart Engines, Show Engines and bad settings.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

interface RunOutcomeShape {
  status: string;
  engine?: string;
  message?: string;
  result?: { claim: string; strength: string; reason?: string; values?: { name: string; value: unknown; unit?: string }[] };
  standing?: { strength: string; claimed: string; reasons: string[] };
}
interface RunRecordShape {
  id: number;
  question: { kind: string; subject: string; schedule: string };
  documents: { path: string; text: string }[];
  state: string;
  engine?: string;
  engineChoice?: string;
  progress?: { steps?: number };
  outcome?: RunOutcomeShape;
  elapsedMs?: number;
}
interface AssayApi {
  languageServerReady: Promise<void>;
  history: { all(): readonly RunRecordShape[]; get(id: number): RunRecordShape | undefined; onDidChange: vscode.Event<RunRecordShape> };
  settled(id: number): Promise<RunRecordShape>;
  statusBarText(): string;
  statusBarRun(): number | undefined;
  questions(): Promise<{ enginePids(): number[]; shown: string[] }>;
}
interface EngineListing {
  name: string;
  origin: string;
  status: string;
  problem?: string;
  ignoredBecause?: string;
}

const extensionId = 'assay.assay';

async function api(): Promise<AssayApi> {
  const extension = vscode.extensions.getExtension<AssayApi>(extensionId);
  assert.ok(extension, `extension ${extensionId} is not loaded`);
  return extension.activate();
}

function workspaceFile(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the fixture workspace is not open');
  return vscode.Uri.file(join(folder.uri.fsPath, name));
}

async function ask(args: Record<string, unknown>): Promise<number> {
  const ids = await vscode.commands.executeCommand<number[] | undefined>('assay.ask', args);
  assert.ok(ids && ids.length === 1, `assay.ask started ${JSON.stringify(ids)}`);
  return ids[0]!;
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** CPU ticks (user + system) a process has used, or undefined once it is gone. */
function cpuTicks(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

const timed = { kind: 'holds', subject: 'TrafficLight::TimedCrossing', condition: null, schedule: 'all', engine: 'assay-reference' };

describe('Ask a Question in the extension host', function () {
  this.timeout(60_000);

  before(async () => {
    await (await api()).languageServerReady;
  });

  afterEach(async () => {
    const config = vscode.workspace.getConfiguration('assay');
    await config.update('engines', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  it('answers holds on the model, marks the violated declaration, and offers the witness as a quick fix', async () => {
    const a = await api();
    const uri = workspaceFile('crossing.sysml');
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const id = await ask({ uri: uri.toString(), ...timed });
    const record = await a.settled(id);
    assert.equal(record.outcome?.status, 'answered', JSON.stringify(record.outcome));
    assert.equal(record.outcome?.result?.claim, 'violated');
    assert.equal(record.engine, 'assay-reference');
    assert.equal(a.statusBarText(), `$(error) violated — ${record.outcome?.standing?.strength}`);
    assert.ok(record.documents.some((d) => d.path === uri.fsPath), 'the open model was not sent');
    assert.ok(record.documents.some((d) => d.path.endsWith('vehicle.sysml')), 'the workspace\'s other model files were not sent');

    const problems = await until('the assay problem', () => {
      const found = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'assay');
      return found.length > 0 ? found : undefined;
    });
    assert.equal(problems.length, 1);
    const line = document.lineAt(problems[0]!.range.start.line).text;
    assert.match(line, /part def TimedCrossing/);
    assert.equal(document.getText(problems[0]!.range), 'TimedCrossing');
    assert.match(problems[0]!.message, /violates holds/);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, problems[0]!.range);
    const fix = actions.find((action) => action.title === 'Show witness');
    assert.ok(fix, `no Show witness quick fix among ${actions.map((x) => x.title).join(', ')}`);
    assert.equal(fix.command?.command, 'assay.openWitness');
    assert.deepEqual(fix.command?.arguments, [id]);
  });

  it('sends unsaved edits, and asking again after an edit that makes it hold clears the problem', async () => {
    const a = await api();
    const uri = workspaceFile('crossing.sysml');
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const safety = 'assert constraint safety { not (nsGreen and ewGreen) }';
    const at = document.getText().indexOf(safety);
    assert.ok(at >= 0, 'fixture changed');
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(document.positionAt(at), document.positionAt(at + safety.length)), 'assert constraint safety { not (nsGreen and ewGreen) or true }');
    assert.ok(await vscode.workspace.applyEdit(edit));
    try {
      const [id] = (await vscode.commands.executeCommand<number[]>('assay.askAgain'))!;
      const record = await a.settled(id!);
      assert.equal(record.question.subject, 'TrafficLight::TimedCrossing');
      assert.ok(record.documents.find((d) => d.path === uri.fsPath)?.text.includes('or true'), 'the unsaved edit was not sent');
      assert.equal(record.outcome?.result?.claim, 'holds', JSON.stringify(record.outcome));
      assert.equal(a.statusBarText(), `$(pass) holds — ${record.outcome?.standing?.strength}`);
      await until('the problem to clear', () => vscode.languages.getDiagnostics(uri).every((d) => d.source !== 'assay') || undefined);
      assert.ok(document.isDirty, 'the model file was written');
    } finally {
      // Back to the text on disk, whatever the active editor is: later tests ask about this model.
      const back = new vscode.WorkspaceEdit();
      back.replace(uri, new vscode.Range(new vscode.Position(0, 0), document.positionAt(document.getText().length)), readFileSync(uri.fsPath, 'utf8'));
      await vscode.workspace.applyEdit(back);
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await until('the model to be as on disk', () => (document.getText() === readFileSync(uri.fsPath, 'utf8') && !document.isDirty) || undefined);
    }
  });

  it('cancels a long run through the protocol: the search so far is kept (holds, bounded), no engine process left, the next question starts one', async () => {
    const a = await api();
    const id = await ask({ kind: 'holds', subject: 'Counters::Six', condition: null, schedule: 'all', engine: 'assay-reference' });
    await until('progress from the engine', () => (a.history.get(id)?.progress?.steps ?? 0) > 0 || undefined);
    assert.match(a.statusBarText(), /^\$\(sync~spin\) holds Counters::Six · [\d,]+ steps/);
    const pids = (await a.questions()).enginePids();
    assert.ok(pids.length > 0, 'no engine process while the run goes');
    assert.deepEqual(await vscode.commands.executeCommand('assay.cancelRun'), [id]);
    const record = await a.settled(id);
    // The outcome, not its latency (tests never assert timing): what was explored is kept.
    const o = record.outcome as unknown as { status: string; result: { claim: string; reason?: string }; standing: { strength: string } };
    assert.equal(o?.status, 'answered', JSON.stringify(o));
    assert.equal(o.result.claim, 'holds');
    assert.equal(o.standing.strength, 'bounded');
    assert.match(o.result.reason ?? '', /^no violation up to here: [\d,]+ states, [\d,]+ moves, depth \d+ explored before the run stopped when it was cancelled$/);
    assert.equal(a.statusBarText(), '$(pass) holds — bounded');
    // The engine is shut down once the cancelled run has settled: no process left within a second.
    await until('the engine processes to end', () => pids.every((pid) => cpuTicks(pid) === undefined) || undefined, 1000);
    // The next question starts a fresh engine.
    assert.equal((await a.settled(await ask(timed))).outcome?.status, 'answered');
  });

  it('copies a run\'s result and asks a run\'s question again from the Runs view', async () => {
    const a = await api();
    const id = await ask(timed);
    await a.settled(id);
    const json = await vscode.commands.executeCommand<string>('assay.runs.copyResult', { run: id });
    assert.equal(await vscode.env.clipboard.readText(), json);
    const copied = JSON.parse(json) as { run: number; result: { claim: string }; engine: string };
    assert.equal(copied.run, id);
    assert.equal(copied.result.claim, 'violated');
    const again = await vscode.commands.executeCommand<number[]>('assay.runs.askAgain', { run: id });
    assert.equal(again?.length, 1);
    const record = await a.settled(again![0]!);
    assert.equal(record.question.subject, 'TrafficLight::TimedCrossing');
    assert.equal(record.outcome?.result?.claim, 'violated');
  });

  it('Ask Again from the palette re-asks the latest run however it was asked, and the status bar reveals its run', async () => {
    const a = await api();
    const older = await a.settled(await ask(timed));
    await a.settled(await ask({ ...timed, subject: 'TrafficLight::InterlockedCrossing' }));
    // The older question asked again from the Runs view is now the latest run.
    const [again] = (await vscode.commands.executeCommand<number[]>('assay.runs.askAgain', { run: older.id }))!;
    await a.settled(again!);
    const [palette] = (await vscode.commands.executeCommand<number[]>('assay.askAgain'))!;
    assert.notEqual(palette, again);
    assert.equal((await a.settled(palette!)).question.subject, 'TrafficLight::TimedCrossing');
    assert.equal(a.statusBarRun(), palette);
    // The status bar item's click: the Runs view with that run selected.
    assert.deepEqual(await vscode.commands.executeCommand('assay.runs.reveal', a.statusBarRun()), { run: palette });
  });

  it('says an invalid assay.schedule as a warning notification as soon as it is set', async () => {
    const a = await api();
    const config = vscode.workspace.getConfiguration('assay');
    await config.update('schedule', 'sometimes', vscode.ConfigurationTarget.Global);
    try {
      const expected = 'Assay: assay.schedule: "sometimes" is not fifo, lifo, all or seed:<n>; using fifo';
      await until('the warning', async () => (await a.questions()).shown.includes(expected) || undefined);
    } finally {
      await config.update('schedule', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('asks with the values a caller binds (the witness panel\'s Confirm), and refuses malformed ones with one error', async () => {
    const a = await api();
    const constraint = { kind: 'evaluate', subject: 'VehicleModel::SpeedLimit', engine: 'assay-reference' };
    const fast = await a.settled(await ask({ ...constraint, bindings: [{ name: 'speed', value: 250, unit: 'km/h' }] }));
    assert.deepEqual(fast.outcome?.result?.values, [{ name: 'SpeedLimit', value: false }], JSON.stringify(fast.outcome));
    const slow = await a.settled(await ask({ ...constraint, bindings: [{ name: 'speed', value: 100, unit: 'km/h' }] }));
    assert.deepEqual(slow.outcome?.result?.values, [{ name: 'SpeedLimit', value: true }], JSON.stringify(slow.outcome));
    const flow = await a.questions();
    const before = flow.shown.length;
    const refused = await vscode.commands.executeCommand<number[] | undefined>('assay.ask', { ...constraint, bindings: [{ name: 'speed', value: { km: 1 } }] });
    assert.equal(refused, undefined);
    assert.match(flow.shown.slice(before).join('\n'), /bindings\[0\]\.value/);
  });

  it('Restart Engines stops the engine processes; the next question starts a new one', async () => {
    const a = await api();
    await a.settled(await ask(timed));
    const pids = (await a.questions()).enginePids();
    assert.ok(pids.length > 0, 'no engine process after a run');
    const stopped = await vscode.commands.executeCommand<number>('assay.restartEngines');
    assert.ok(stopped >= 1);
    for (const pid of pids) assert.equal(cpuTicks(pid), undefined, `engine ${pid} still runs after Restart Engines`);
    await a.settled(await ask(timed));
    const fresh = (await a.questions()).enginePids();
    assert.ok(fresh.length > 0 && fresh.every((pid) => !pids.includes(pid)), `${fresh} vs ${pids}`);
  });

  it('a bad engine entry in settings is one clear error naming the entry and the setting key', async () => {
    const a = await api();
    const flow = await a.questions();
    const before = flow.shown.length;
    await vscode.workspace.getConfiguration('assay').update('engines', [{ name: 'typo', command: 'x', answers: ['hold'] }], vscode.ConfigurationTarget.Global);
    const message = await until('the settings error', () => flow.shown.slice(before).find((m) => /typo/.test(m)));
    assert.match(message, /assay\.engines \(user settings\) entry 0, field answers\.0/);
    assert.match(message, /engine "typo" is not used/);
    // The good engines still answer.
    const record = await a.settled(await ask(timed));
    assert.equal(record.outcome?.status, 'answered');
    assert.equal(flow.shown.slice(before).filter((m) => /typo/.test(m)).length, 1, 'the same problem was reported twice');
  });

  it('shows a run that waits for an engine answering one question at a time as queued', async () => {
    const a = await api();
    const extensionPath = vscode.extensions.getExtension(extensionId)!.extensionPath;
    await vscode.workspace.getConfiguration('assay').update('engines', [{
      name: 'one-at-a-time', command: process.execPath, args: [join(extensionPath, 'test', 'fixtures', 'engines', 'well-behaved.js')],
      env: {
        ELECTRON_RUN_AS_NODE: '1', FIXTURE_NAME: 'one-at-a-time',
        FIXTURE_CONFIG: JSON.stringify({ describe: { concurrent: false }, delayMs: 1500, progress: 1 }),
      },
      concurrent: false,
    }], vscode.ConfigurationTarget.Global);
    await until('the new engine in the settings', async () => {
      const engines = await vscode.commands.executeCommand<EngineListing[]>('assay.showEngines');
      return engines.some((e) => e.name === 'one-at-a-time' && e.status === 'ready') || undefined;
    });
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    const question = { ...timed, engine: 'one-at-a-time' };
    const first = await ask(question);
    await until('the first run to start', () => a.history.get(first)?.state === 'running' || undefined);
    const second = await ask(question);
    await until('the second run to wait', () => a.history.get(second)?.state === 'queued' && a.statusBarText().includes('queued') || undefined);
    assert.equal(a.statusBarText(), '$(clock) holds TrafficLight::TimedCrossing · queued for one-at-a-time (+1)');
    const one = await a.settled(first);
    // The engine answers one question at a time and takes 1.5 s per answer: when the first settles the
    // second has at most just started, so it cannot have settled (an order, not a duration).
    assert.notEqual(a.history.get(second)?.state, 'settled', 'the second run settled with the first: it did not wait');
    const two = await a.settled(second);
    assert.equal(one.outcome?.result?.claim, 'holds');
    assert.equal(two.outcome?.result?.claim, 'holds');
  });

  it('asks every engine that fits with "all", and an engine crashing mid-run is one error naming it', async () => {
    const a = await api();
    const flow = await a.questions();
    const extensionPath = vscode.extensions.getExtension(extensionId)!.extensionPath;
    await vscode.workspace.getConfiguration('assay').update('engines', [{
      name: 'crasher', command: process.execPath, args: [join(extensionPath, 'test', 'fixtures', 'engines', 'crash-mid-run.js')],
      env: { ELECTRON_RUN_AS_NODE: '1', FIXTURE_NAME: 'crasher' },
    }], vscode.ConfigurationTarget.Global);
    await until('the new engine in the settings', async () => {
      const engines = await vscode.commands.executeCommand<EngineListing[]>('assay.showEngines');
      return engines.some((e) => e.name === 'crasher' && e.status === 'ready') || undefined;
    });
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    const before = flow.shown.length;
    const ids = await vscode.commands.executeCommand<number[]>('assay.ask', { ...timed, engine: 'all' });
    // The bundled engine, the user's crasher and the workspace's entry (it answers holds) each get one run.
    assert.equal(ids?.length, 3, `"all" started ${JSON.stringify(ids)}`);
    const records = await Promise.all(ids!.map((id) => a.settled(id)));
    const byEngine = new Map(records.map((r) => [r.engineChoice, r]));
    assert.deepEqual([...byEngine.keys()], ['assay-reference', 'crasher', 'workspace-engine']);
    assert.equal(byEngine.get('assay-reference')?.outcome?.result?.claim, 'violated');
    const crashed = byEngine.get('crasher')!;
    assert.equal(crashed.outcome?.status, 'error', JSON.stringify(crashed.outcome));
    assert.match(crashed.outcome?.message ?? '', /crasher/);
    // The workspace's entry names a program that is not there: not covered, with the reason.
    assert.equal(byEngine.get('workspace-engine')?.outcome?.status, 'not covered');
    const errors = flow.shown.slice(before).filter((m) => /crasher/.test(m));
    assert.equal(errors.length, 1, `expected one error about the crash, got ${JSON.stringify(errors)}`);
    assert.match(errors[0]!, /segment table corrupted|exited with code 1/);
  });

  it('Show Engines names the fields of a refused engine', async () => {
    const extensionPath = vscode.extensions.getExtension(extensionId)!.extensionPath;
    await vscode.workspace.getConfiguration('assay').update('engines', [{
      name: 'liar', command: process.execPath, args: [join(extensionPath, 'test', 'fixtures', 'engines', 'wrong-describe.js')],
      env: { ELECTRON_RUN_AS_NODE: '1' }, version: '1.0.0', answers: ['holds', 'outcomes'],
    }], vscode.ConfigurationTarget.Global);
    const engines = await vscode.commands.executeCommand<EngineListing[]>('assay.showEngines');
    const liar = engines.find((e) => e.name === 'liar');
    assert.ok(liar, JSON.stringify(engines));
    assert.equal(liar.status, 'refused', JSON.stringify(liar));
    assert.match(liar.problem ?? '', /version/);
    assert.match(liar.problem ?? '', /answers/);
    assert.equal(engines.find((e) => e.name === 'assay-reference')?.status, 'ready');
  });
});
