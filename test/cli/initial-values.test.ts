// `evaluate` reads the values a model declares; a feature an action or a part's behaviour assigns has
// its declared value only at the start (`attribute x := 1; … assign x := 5;`): it was answered x = 1 at
// proved, as if that were its value. Now such a feature is refused (outcomes gives its value at each
// end), a part's listing says which values are initial ones, and a question that binds it answers.
import { strict as assert } from 'node:assert';
import { askJson, modelFolder, refuses } from './ask-json';
import { buildIfMissing } from './built';

const ACTION = `package D {
  action def Run {
    attribute x : ScalarValues::Integer := 1;
    attribute z : ScalarValues::Integer := 0;
    assign x := 5;
    then assign z := x + 1;
  }
  part p {
    attribute x : ScalarValues::Integer := 1;
    attribute y : ScalarValues::Integer = 7;
    perform action bump { assign x := 5; }
  }
}
`;

describe('cli: evaluate of a feature that a behaviour assigns', function () {
  this.timeout(120_000);
  before(() => buildIfMissing('cli.js'));
  const { model } = modelFolder('assay-initial-');

  it('an action\'s own feature, or a part\'s its behaviour assigns, is refused at the assignment (exit 3)', () => {
    const file = model('run.sysml', ACTION);
    refuses(file, ['evaluate', 'D::Run::x'], /run\.sysml:5:5/, /Run assigns 'x', so its value changes as that behaviour runs/);
    refuses(file, ['evaluate', 'D::p::x'], /run\.sysml:11:27/, /p assigns 'x'/);
  });

  it('outcomes gives the value at the end; bound by the question it answers; a feature not assigned answers', () => {
    const file = model('run.sysml', ACTION);
    const end = askJson('outcomes', 'D::Run', '--model', file);
    assert.equal(end.code, 0, JSON.stringify(end.answer));
    assert.equal(end.answer.result?.values?.find((v) => v.name === 'x@1')?.value, 5);
    const bound = askJson('evaluate', 'D::Run::x', '--bind', 'x=3', '--model', file);
    assert.equal(bound.code, 0, JSON.stringify(bound.answer));
    assert.equal(bound.answer.result?.values?.[0]?.value, 3);
    const y = askJson('evaluate', 'D::p::y', '--model', file);
    assert.equal(y.answer.result?.values?.[0]?.value, 7);
  });

  it('a part\'s listing keeps the initial value and says so in the reason', () => {
    const r = askJson('evaluate', 'D::p', '--model', model('run.sysml', ACTION));
    assert.equal(r.code, 0, JSON.stringify(r.answer));
    assert.match(r.answer.result?.reason ?? '', /x: the initial value, which a behaviour of the holder assigns as it runs/);
  });
});
