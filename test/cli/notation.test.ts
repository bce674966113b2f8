// OpenSysML's notation through the CLI and the bundled engine (#15 item 8): a model written in it is
// answered as its SysML v2 spelling is (test/fixtures/models/notation: the same model both ways), and
// the answer says which constructs it read so, with their places; `assay parse` lists them as warnings.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildIfMissing } from './built';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const OPENSYSML = 'test/fixtures/models/notation/opensysml.sysml';
const STANDARD = 'test/fixtures/models/notation/standard.sysml';

interface Answer {
  result?: { claim: string; values?: { name: string; value: unknown; unit?: string }[]; assumptions?: string[]; reason?: string };
  standing?: { strength: string };
}

function run(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 90_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function ask(...args: string[]): Answer {
  const r = run(...args, '--json');
  assert.equal(r.code, 0, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return JSON.parse(r.stdout) as Answer;
}

const values = (a: Answer): string[] => (a.result?.values ?? []).map((v) => `${v.name} = ${String(v.value)}${v.unit ? ` [${v.unit}]` : ''}`);

describe('cli: OpenSysML notation is answered as its SysML v2 spelling, and says so', function () {
  this.timeout(120_000);
  before(() => buildIfMissing('cli.js', 'engine.js'));

  it('runs an action written with markers and paired successions to the same outcome as the standard one', () => {
    const written = ask('outcomes', 'Notation::Fill', '--model', OPENSYSML, '--schedule', 'all');
    const standard = ask('outcomes', 'Notation::Fill', '--model', STANDARD, '--schedule', 'all');
    assert.equal(written.standing?.strength, 'proved');
    // level 2 + 3 = 5 > 4, so the spill branch runs: spills 1, level stays 5.
    assert.deepEqual(values(written), ['end@1 = done', 'level@1 = 5', 'spills@1 = 1']);
    assert.deepEqual(values(written), values(standard));
    assert.equal(standard.result?.assumptions, undefined, 'the standard spelling rests on nothing beyond SysML v2');
    const said = written.result?.assumptions ?? [];
    assert.match(said[0]!, /^test\/fixtures\/models\/notation\/opensysml\.sysml:15:9: nonstandard notation \(OpenSysML\): `done finish;`/);
    assert.match(said.join('\n'), /… and 1 more constructs? of OpenSysML's notation in Notation::Fill/);
    assert.match(said.at(-1)!, /^10 constructs of OpenSysML's notation elsewhere in the model/);
  });

  it('runs a state machine written with initial/final markers, bare blocks and `transition … to …` as the standard one', () => {
    const written = ask('outcomes', 'Notation::Door', '--model', OPENSYSML, '--schedule', 'all');
    const standard = ask('outcomes', 'Notation::Door', '--model', STANDARD, '--schedule', 'all');
    // closed (entry: openings 1) → opened → exit (closings 1) → effect openings × 10 → done.
    assert.deepEqual(values(written), ['end@1 = done', 'openings@1 = 10', 'closings@1 = 1']);
    assert.deepEqual(values(written), values(standard));
    assert.match((written.result?.assumptions ?? []).join('\n'), /opensysml\.sysml:30:21: nonstandard notation \(OpenSysML\): `openings = …;` in a bare block is OpenSysML's assignment; SysML v2 writes `assign openings := …;`/);
  });

  it('computes a calc whose result is `return <expression>;`', () => {
    const written = ask('compute', 'Notation::Margin', '--model', OPENSYSML, '--bind', 'limit=10', '--bind', 'load=4');
    assert.deepEqual(values(written), ['Margin = 6']);
    assert.deepEqual(values(ask('compute', 'Notation::Margin', '--model', STANDARD, '--bind', 'limit=10', '--bind', 'load=4')), ['Margin = 6']);
    assert.match(written.result?.assumptions?.[0] ?? '', /opensysml\.sysml:45:9: .*`return <expression>;`; SysML v2 writes `return = <expression>;`/);
  });

  it("evaluates a constraint whose body states its condition with `assert <expression>;` as the standard expression", () => {
    const model = 'test/fixtures/models/notation/constraint-asserts.sysml';
    assert.deepEqual(values(ask('evaluate', 'Checks::WithinLimit', '--model', model)), ['WithinLimit = true']);
    assert.deepEqual(values(ask('evaluate', 'Checks::WithinLimitStd', '--model', model)), ['WithinLimitStd = true']);
    // 80 - 90 is not above 0: false, naming the statement.
    const tooFast = ask('evaluate', 'Checks::TooFast', '--model', model);
    assert.deepEqual(values(tooFast), ['TooFast = false']);
    assert.match(tooFast.result?.reason ?? '', /^TooFast: margin\(80\) > 0 is false \(test\/fixtures\/models\/notation\/constraint-asserts\.sysml:11:16\)$/);
    assert.ok((tooFast.result?.assumptions ?? []).some((a) => /`assert <expression>;`; SysML v2 writes the condition as the constraint's expression/.test(a)), JSON.stringify(tooFast.result?.assumptions));
  });

  it('lists every construct as a warning in `assay parse`, which still succeeds', () => {
    const r = run('parse', OPENSYSML);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const lines = r.stdout.split('\n').filter((l) => / warning: nonstandard notation \(OpenSysML\): /.test(l));
    assert.equal(lines.length, 16, r.stdout);
    assert.match(lines[0]!, /^test\/fixtures\/models\/notation\/opensysml\.sysml:15:9: warning: /);
    assert.match(r.stdout, /0 syntax errors/);
  });
});
