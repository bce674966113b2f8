// Soundness hunt, third round (behaviour flows, the solver, library functions): questions on which assay
// answered wrongly at `proved`, asked through the CLI of the bundled engine. Each answer is now the
// correct one, or a refusal naming the construct and its place. The models are small ones written here.
import { strict as assert } from 'node:assert';
import { buildIfMissing } from './built';
import { askJson, modelFolder } from './ask-json';

/** Asks `question` of `model`: answered at proved, the value `name` being `want`. */
function proves(model: string, question: readonly string[], name: string, want: string): void {
  const { code, answer } = askJson(...question, '--model', model);
  assert.equal(code, 0, JSON.stringify(answer));
  assert.equal(answer.standing?.strength, 'proved', JSON.stringify(answer));
  const v = answer.result?.values?.find((x) => x.name === name);
  assert.ok(v, `no value ${name} in ${JSON.stringify(answer)}`);
  assert.equal(v.unit ? `${String(v.value)} [${v.unit}]` : String(v.value), want, question.join(' '));
}

describe('cli: soundness hunt 3 — behaviour flows, the solver, library functions', function () {
  this.timeout(120_000);
  before(() => buildIfMissing('cli.js', 'engine.js'));
  const { model } = modelFolder('assay-hunt3-');

  it('`if … else if … else …` then an action: the action follows every branch of the chain (after an inner branch the run ended)', () => {
    const m = model('else-if.sysml', `package EI {
  import ScalarValues::*;
  action def Grade {
    in attribute k : Integer;
    attribute r : Integer := 0;
    first start;
    then if k > 5 { assign r := 1; } else if k > 2 { assign r := 2; } else { assign r := 3; }
    then action scale { assign r := r * 10; }
  }
}
`);
    // Once: r = 3 and r = 2 at proved for k = 1 and k = 3 (the branches of the inner if ended the run
    // instead of going on to scale); k = 7 was right.
    for (const [k, r] of [['1', '30'], ['3', '20'], ['7', '10']] as const) {
      proves(m, ['outcomes', 'EI::Grade', '-schedule', 'all', '--bind', `k=${k}`], 'r@1', r);
    }
  });
});
