// The inputs of compute and sweep questions as the editor asks for them: the subject's parameters with
// type, unit and the model's default; values and ranges checked as typed (the message a user sees);
// the sweep sent; the computed value in the notification; and a real engine answering what the flow sends.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ModelOutline } from '../../src/extension/ask/askModel';
import {
  computedText, parseInputValue, parseRangeText, parseSamples, rangeInputText, sweepOf, tableText, valueInputText, type Parameter,
} from '../../src/extension/ask/askInputs';
import type { Question, Value } from '../../src/protocol';
import { Host, referenceEngineEntry, type RunOutcome } from '../../src/host';
import { conditionSyntaxError, questionProblem } from '../../src/host/question-check';
import { progressCounts, runsEntry, settledMessage, statusText } from '../../src/extension/ask/askText';
import { SysmlModel } from '../../src/host/sysml-model';

const kinetic = `package V {
    private import ISQ::*;
    private import SI::*;
    calc def Kinetic {
        in m : MassValue default 1000 [kg];
        in v : SpeedValue;
        in n : Integer;
        in g : Real = 9.81;
        return e : EnergyValue = 0.5 * m * v * v;
    }
    calc k : Kinetic;
}
`;

describe('editor ask flow: compute and sweep inputs', () => {
  const outline = new ModelOutline([{ path: '/ws/k.sysml', text: kinetic }]);
  const [m, v, n] = outline.parametersOf('V::Kinetic') as [Parameter, Parameter, Parameter];

  it('lists a calc\'s in parameters with type, unit and the model\'s default, also through a usage typed by it; one bound with = is not an input', () => {
    assert.deepEqual(outline.parametersOf('V::Kinetic'), [
      { name: 'm', type: 'MassValue', unit: 'kg', defaultText: '1000 [kg]' },
      { name: 'v', type: 'SpeedValue', unit: 'm/s' },
      { name: 'n', type: 'Integer' },
    ]);
    assert.deepEqual(outline.parametersOf('V::k').map((p) => p.name), ['m', 'v', 'n']);
  });

  it('checks a typed value as the user types: number, unit dimension, whole numbers, empty with and without a default', () => {
    assert.deepEqual(parseInputValue(v, '10 [m/s]'), { value: { name: 'v', value: 10, unit: 'm/s' } });
    assert.deepEqual(parseInputValue(v, '36 [km/h]'), { value: { name: 'v', value: 36, unit: 'km/h' } });
    assert.match(parseInputValue(v, '10 [kg]').error!, /\[kg\] is not a unit of SpeedValue \(use a unit like \[m\/s\]\)/);
    assert.match(parseInputValue(v, 'fast').error!, /v takes a number with a unit like \[m\/s\]/);
    assert.match(parseInputValue(v, '10 [furlongs]').error!, /\[furlongs\] is not a unit Assay knows/);
    assert.match(parseInputValue(v, '').error!, /v has no default in the model: type a value/);
    assert.deepEqual(parseInputValue(m, ''), {}, 'empty keeps the model\'s default');
    assert.match(parseInputValue(n, '2.5').error!, /whole number/);
    assert.match(parseInputValue(n, '2 [m]').error!, /plain number: no unit/);
    assert.match(parseInputValue(v, '1.999999999999999999 [m/s]').error!, /^v: 1\.999999999999999999 is not carried exactly/);
    assert.equal(valueInputText({ value: 10, unit: 'm/s' }), '10 [m/s]');
  });

  it('reads a range with a step, or without one as a sampled sweep, and says what is wrong with a bad one', () => {
    const stepped = parseRangeText(v, '0 .. 30 step 10');
    assert.deepEqual(stepped, { range: { parameter: 'v', type: 'SpeedValue', from: 0, to: 30, step: 10 }, sampled: false });
    assert.equal(rangeInputText(stepped.range!), '0 .. 30 step 10');
    assert.deepEqual(parseRangeText(v, '0 [km/h] .. 100 [km/h]').range, { parameter: 'v', type: 'SpeedValue', from: 0, to: 100, unit: 'km/h' });
    assert.match(parseRangeText(v, '0 .. 30 step 0').error!, /step must be greater than 0/);
    assert.match(parseRangeText(v, '30 .. 0 step 1').error!, /"to" \(0\) is below "from" \(30\)/);
    assert.match(parseRangeText(v, '0 [m/s] .. 30 [km/h] step 1').error!, /different units/);
    assert.match(parseRangeText(v, '0 to 30').error!, /<from> \.\. <to> step <step>, e\.g\. 0 \[m\/s\] \.\. 30 \[m\/s\] step 10 \[m\/s\]/);
    assert.deepEqual(sweepOf([stepped], 20), { ranges: [stepped.range] });
    assert.deepEqual(sweepOf([parseRangeText(v, '0 .. 30')], 20), { ranges: [{ parameter: 'v', type: 'SpeedValue', from: 0, to: 30 }], sampled: true, samples: 20, seed: 0 });
    assert.equal(parseSamples('20'), 20);
    assert.match(String(parseSamples('0')), /whole number of samples/);
  });

  it('shows a computed value and a table size in words', () => {
    assert.equal(computedText([{ name: 'Kinetic', value: 50000, unit: 'J' }]), 'Kinetic = 50,000 [J]');
    assert.equal(computedText([{ name: 'x', value: 0.1 + 0.2 }]), 'x = 0.3');
    assert.equal(tableText([{ name: 'v@1', value: 0 }, { name: 'e@1', value: 0 }, { name: 'v@2', value: 1 }, { name: 'min(v)', value: 0 }]), 'a table of 2 rows');
  });

  it('the bundled engine answers the compute and the sweep the flow builds from typed inputs', async function () {
    this.timeout(60_000);
    const bindings = [parseInputValue(v, '10 [m/s]').value!, parseInputValue(n, '1').value!];
    const compute: Question = { kind: 'compute', subject: 'V::Kinetic', schedule: 'fifo', free: [], bindings };
    const computed = await askEngine(compute);
    assert.deepEqual(computed.values, [{ name: 'Kinetic', value: 50000, unit: 'J' }]);
    assert.equal(computedText(computed.values), 'Kinetic = 50,000 [J]');
    const sweep: Question = { kind: 'sweep', subject: 'V::Kinetic', schedule: 'fifo', free: [], bindings: [bindings[1]!], sweep: sweepOf([parseRangeText(v, '0 .. 30 step 10')], 20) };
    const table = await askEngine(sweep);
    assert.equal(tableText(table.values), 'a table of 4 rows');
  });
});

describe('editor ask flow: progress', () => {
  it('shows counts in one number format with the time since asked, and no "0 runs" for a search that ended no execution yet', () => {
    assert.equal(progressCounts({ steps: 41200, depth: 18, runs: 0, text: '12345 states' }, 2400), '41,200 steps · depth 18 · 12,345 states · 2.4 s');
    assert.equal(progressCounts({ steps: 5, runs: 1 }), '5 steps · 1 run');
    assert.equal(progressCounts(undefined, 100), '');
  });
});

describe('editor ask flow: errors shown as what they are', () => {
  it('a typed condition is checked as typed, with the column in the user\'s own text', () => {
    assert.equal(conditionSyntaxError('a and not b'), undefined);
    assert.deepEqual(conditionSyntaxError('a and'), { column: 6, message: 'expected an expression, found the end of the condition' });
    assert.deepEqual(conditionSyntaxError('x >> 3'), { column: 4, message: "expected an expression, found '>'" });
    assert.deepEqual(conditionSyntaxError(' '), { column: 1, message: 'the condition is empty' });
  });

  it('a syntax error where the subject is declared is a model error at file:line:col; one elsewhere is not', () => {
    const broken = { path: '/ws/broken.sysml', text: 'package B {\n  part def P {\n    part q : P\n  }\n}\n' };
    const fine = { path: '/ws/k.sysml', text: kinetic };
    const problem = questionProblem({ subject: 'B::P' }, [broken, fine]);
    assert.equal(problem?.status, 'model error');
    assert.match(problem!.message, /^\/ws\/broken\.sysml:3:15: expected ';' after part usage/);
    assert.equal(questionProblem({ subject: 'V::Kinetic' }, [broken, fine]), undefined);
    // A feature the error hid (`derived` is a keyword: the feature is not declared at all): the error
    // is in the document declaring its enclosing P, not "not declared".
    const hidden = { path: '/ws/hidden.sysml', text: 'package H {\n  part def P {\n    attribute derived = 1;\n  }\n}\n' };
    const hid = questionProblem({ subject: 'H::P::derived' }, [hidden, fine]);
    assert.equal(hid?.status, 'model error', JSON.stringify(hid));
    assert.match(hid!.message, /^\/ws\/hidden\.sysml:3:15: expected ';' after attribute usage, found 'derived'/);
    assert.equal(questionProblem({ subject: 'V::Nowhere' }, [broken, fine]), undefined);
  });

  it('an engine that cannot start reads as an engine error naming it, not "not covered"', () => {
    const outcome: RunOutcome = { status: 'not covered', reasons: [{ engine: 'ghost', reason: 'engine "ghost" cannot start: command "ghost" was not found', failed: true }] };
    const run = { id: 1, question: { kind: 'holds' as const, subject: 'A::B', schedule: 'fifo', free: [] }, state: 'settled' as const, outcome, elapsedMs: 5 };
    assert.equal(statusText(run), '$(error) engine error — holds A::B');
    assert.equal(settledMessage(run), 'holds A::B — engine error: engine "ghost" cannot start: command "ghost" was not found');
    assert.match(runsEntry(run).description, /^engine error · 5 ms$/);
    const declined: RunOutcome = { status: 'not covered', reasons: [{ engine: 'x', reason: 'does not cover it: no states' }] };
    assert.match(settledMessage({ ...run, outcome: declined }), /— not covered: x does not cover it/);
  });
});

/** One question to the bundled engine (dist/engine.js) through the host core the editor uses; the answer's values. */
async function askEngine(question: Question): Promise<{ values: Value[] }> {
  const host = new Host({ entries: [referenceEngineEntry(join(__dirname, '..', '..', 'dist'))], modelIndex: new SysmlModel() });
  try {
    const outcome = await host.ask({ question, documents: [{ path: '/ws/k.sysml', text: kinetic }], budget: { deadline: 60 } }).settled;
    assert.equal(outcome.status, 'answered', JSON.stringify(outcome));
    return outcome.status === 'answered' ? { values: outcome.result.values ?? [] } : { values: [] };
  } finally {
    await host.shutdown();
  }
}
