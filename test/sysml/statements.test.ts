// Statements a modeler writes in behaviour bodies that SysML does not read as they look: the grammar
// admits `x = e;` as a keyword-less feature declaration (a new feature, never an assignment) and has no
// `return` statement. The parser reports both, with their place, instead of building something else
// silently; and a model with them is refused by the engine's session like any syntax error.
import { strict as assert } from 'node:assert';
import { parse } from '../../src/sysml';
import { Model } from '../../src/sysml/model/session';

const errorsOf = (text: string) => parse(text).errors.map((e) => `${e.range.line}:${e.range.column}: ${e.message}`);
const RETURN = "'return' is not admitted here: SysML has no return statement; `return` declares the result parameter, directly in a calc, constraint, case or analysis body (give the result as the body's last expression, or `assign` it to a feature)";

describe('sysml parser: declarations that read as assignments, and return statements', () => {
  it('`x = e;` in a for body over a feature of the calc: an error at the statement, naming the fix', () => {
    const text = [
      'calc def Sum {',
      '\tin xs : Real[*];',
      '\tattribute sum : Real = 0;',
      '\tfor x in xs {',
      '\t\tsum = sum + x;',
      '\t}',
      '\treturn s : Real = sum;',
      '}',
    ].join('\n');
    assert.deepEqual(errorsOf(text), ["5:3: `sum = sum + x;` declares a new feature 'sum', it does not assign: write `assign sum := sum + x;`"]);
  });

  it('`x = e;` and `x := e;` in while, loop, if and nested action bodies; the for variable counts as declared', () => {
    const text = [
      'action def Fact {',
      '\tin n : Integer;',
      '\tattribute acc : Integer = 1;',
      '\tattribute i : Integer = 1;',
      '\twhile i <= n {',
      '\t\tacc = acc * i;',
      '\t\ti := i + 1;',
      '\t}',
      '\tloop { acc = 0; } until acc > 3;',
      '\tif acc > 2 { action inner { acc = 2; } } else { i = 0; }',
      '\tfor x in (1, 2) { x = 3; }',
      '}',
    ].join('\n');
    assert.deepEqual(errorsOf(text), [
      "6:3: `acc = acc * i;` declares a new feature 'acc', it does not assign: write `assign acc := acc * i;`",
      "7:3: `i := i + 1;` declares a new feature 'i', it does not assign: write `assign i := i + 1;`",
      "9:9: `acc = 0;` declares a new feature 'acc', it does not assign: write `assign acc := 0;`",
      "10:30: `acc = 2;` declares a new feature 'acc', it does not assign: write `assign acc := 2;`",
      "10:50: `i = 0;` declares a new feature 'i', it does not assign: write `assign i := 0;`",
      "11:20: `x = 3;` declares a new feature 'x', it does not assign: write `assign x := 3;`",
    ]);
  });

  it('in state bodies and entry actions; over a feature of an enclosing part; twice in one body', () => {
    const text = [
      'part def Counter {',
      '\tattribute limit : Integer = 3;',
      '\tstate def S {',
      '\t\tattribute count : Integer = 0;',
      '\t\tentry action { count = count + 1; }',
      '\t\tlimit = 4;',
      '\t}',
      '\taction step { attribute y : Integer; y = 3; }',
      '}',
    ].join('\n');
    assert.deepEqual(errorsOf(text), [
      "5:18: `count = count + 1;` declares a new feature 'count', it does not assign: write `assign count := count + 1;`",
      "6:3: `limit = 4;` declares a new feature 'limit', it does not assign: write `assign limit := 4;`",
      "8:39: `y = 3;` declares a new feature 'y', it does not assign: write `assign y := 3;`",
    ]);
  });

  it('long expressions are shortened in the message', () => {
    const errors = errorsOf('action def A {\n\tattribute t : Integer = 0;\n\taction b { t = t + 1000000 + 2000000 + 3000000 + 4000000 + 5000000; }\n}');
    assert.deepEqual(errors, ["3:13: `t = t + 1000000 + 2000000 + 3000000 + 40000…;` declares a new feature 't', it does not assign: write `assign t := t + 1000000 + 2000000 + 3000000 + 40000…;`"]);
  });

  it('what the grammar admits and means stays quiet: new names, keywords, types, redefinitions, structure bodies, assign', () => {
    const text = [
      'part def Vehicle {',
      '\tattribute mass : Real;',
      '\tpart engine { mass = 5; }', // a part body: a declaration, and not a step of a behaviour
      '\taction go {',
      '\t\tfresh = 2;', // a new local name
      '\t\tattribute mass : Real = 6;', // a keyword says declaration
      '\t\tref speed = 3;',
      '\t\tmass2 : Real = 1;',
      '\t\t:>> mass = 7;',
      '\t\tassign mass := 8;',
      '\t}',
      '}',
      'calc def C { in x : Real; return x; }', // `return x;` declares the result parameter x
    ].join('\n');
    assert.deepEqual(errorsOf(text), []);
  });

  it('`return` in an if, loop, for or action body is a syntax error at the keyword', () => {
    const text = [
      'calc def Abs {',
      '\tin x : Real;',
      '\tif x < 0 {',
      '\t\treturn x;',
      '\t}',
      '\twhile x > 1 { return y; }',
      '\tx',
      '}',
      'action def A { return r : Real; }',
    ].join('\n');
    assert.deepEqual(errorsOf(text), [`4:3: ${RETURN}`, `6:16: ${RETURN}`, `9:16: ${RETURN}`]);
  });

  it('`return e;` with an expression is OpenSysML\'s notation in a calc body (read with a warning), a syntax error elsewhere', () => {
    assert.deepEqual(errorsOf('calc def Ret {\n\tin x : Real;\n\treturn x + 1;\n}'), []);
    assert.deepEqual(parse('calc def Ret {\n\tin x : Real;\n\treturn x + 1;\n}').warnings.map((w) => w.standard), ['`return = <expression>;`']);
    assert.deepEqual(errorsOf('calc def Abs {\n\tin x : Real;\n\tif x < 0 { return -x; }\n\tx\n}'), [`3:13: ${RETURN}`, "3:20: expected ';' after return usage, found '-'"]);
  });

  it("the engine's model refuses a subject in such a document, naming the first error", () => {
    const model = new Model({ documents: [{ path: 'fact.sysml', text: 'calc def F {\n\tin n : Integer = 3;\n\tattribute acc : Integer = 1;\n\twhile acc < n { acc = acc + 1; }\n\treturn : Integer = acc;\n}' }] });
    assert.throws(() => model.subject('F'), /^UnsupportedError: fact\.sysml:4:18: `acc = acc \+ 1;` declares a new feature 'acc', it does not assign: write `assign acc := acc \+ 1;`$/);
  });
});
