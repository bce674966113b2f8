// Feature-like nodes keep visibility, direction, portion kind and (usages) keyword and role packed in
// one number with their flags; they read, and serialize, like plain fields.
import { strict as assert } from 'node:assert';
import { parse, type Definition, type Usage, type Succession } from '../../src/sysml';

describe('sysml parser: packed scalar fields of feature-like nodes', () => {
  it('reads every visibility, direction and portion kind back, on usages and other feature nodes', () => {
    const r = parse(`part def P {
  public in part a : A;
  private out snapshot attribute b : B;
  protected inout timeslice item c;
  ref d;
  private first x then y;
}`);
    assert.deepEqual(r.errors, []);
    const [a, b, c, d, s] = (r.document.members[0] as Definition).body! as [Usage, Usage, Usage, Usage, Succession];
    assert.deepEqual([a.visibility, a.direction, a.portionKind, a.keyword, a.role], ['public', 'in', null, 'part', null]);
    assert.deepEqual([b.visibility, b.direction, b.portionKind, b.keyword], ['private', 'out', 'snapshot', 'attribute']);
    assert.deepEqual([c.visibility, c.direction, c.portionKind, c.keyword], ['protected', 'inout', 'timeslice', 'item']);
    assert.deepEqual([d.visibility, d.direction, d.portionKind, d.keyword, d.isRef], [null, null, null, 'ref', true]);
    assert.deepEqual([s.kind, s.visibility, s.direction], ['Succession', 'private', null]);
    const json = JSON.parse(JSON.stringify(b)) as Record<string, unknown>;
    assert.deepEqual([json.visibility, json.direction, json.portionKind, json.keyword, json.role], ['private', 'out', 'snapshot', 'attribute', null]);
  });

  it('keeps every usage keyword and role, multi-word ones and a role given after construction included', () => {
    const r = parse(`requirement def R {
  subject v : V;
  require constraint { v.m > 0 }
  succession flow f from a.x to b.y;
  use case u;
}
part def Q { connect a to b; bind c = d; allocate e to g; }`);
    assert.deepEqual(r.errors, []);
    const [req, q] = r.document.members as [Definition, Definition];
    const body = req.body! as Usage[];
    assert.deepEqual(body.map((u) => [u.keyword, u.role]), [['ref', 'subject'], ['constraint', 'require'], ['succession flow', null], ['use case', null]]);
    assert.deepEqual((q.body! as Usage[]).map((u) => u.keyword), ['connection', 'binding', 'allocation']);
  });
});
