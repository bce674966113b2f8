// OpenSysML's notation (#15 item 8): each construct outside the SysML v2 grammar is read as the standard
// spelling it names, with a `nonstandard-notation` warning at its place, never silently; the standard
// spellings themselves give no warning, and `x = e;` keeps its SysML v2 reading outside OpenSysML's blocks.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, type Member, type ParseResult, type Succession, type Transition } from '../../src/sysml';

const NOTATION = join(__dirname, '..', 'fixtures', 'models', 'notation');

function read(text: string): ParseResult {
  const r = parse(text);
  assert.deepEqual(r.errors.map((e) => `${e.range.line}:${e.range.column}: ${e.message}`), [], 'no syntax errors');
  return r;
}

function warnings(r: ParseResult): string[] {
  return r.warnings.map((w) => `${w.range.line}:${w.range.column}: ${w.standard}`);
}

/** The members of the first body in the text (the action, state or calc in the package). */
function body(r: ParseResult): Member[] {
  const pkg = r.document.members[0] as { members: Member[] };
  const owner = pkg.members.find((m) => 'body' in m && Array.isArray((m as { body?: unknown }).body)) as { body: Member[] };
  return owner.body;
}

const name = (r: { target: { kind: string; segments?: string[] } } | null | undefined): string | undefined =>
  r?.target.kind === 'QualifiedName' ? r.target.segments!.join('::') : undefined;
const refName = (r: { kind: string; segments?: string[] } | null): string | undefined => (r?.kind === 'QualifiedName' ? r.segments!.join('::') : undefined);

describe('OpenSysML notation: read as its SysML v2 spelling, with a warning', () => {
  it('reads `then A B;` and `A then B;` as `first A then B;`, a guard included', () => {
    const r = read('package P { action a { action x; action y; action z; first start; then x y; then y z if true; x then z; } }');
    const successions = body(r).filter((m): m is Succession => m.kind === 'Succession' && m.target !== null);
    assert.deepEqual(successions.map((s) => [s.form, name(s.source), name(s.target), s.guard !== null]), [
      ['first', 'x', 'y', false], ['first', 'y', 'z', true], ['first', 'x', 'z', false],
    ]);
    assert.deepEqual(warnings(r), ['1:67: `first x then y;`', '1:77: `first y if … then z;`', '1:95: `first x then z;`']);
    assert.ok(r.warnings.every((w) => w.code === 'nonstandard-notation' && /^nonstandard notation \(OpenSysML\): /.test(w.message)));
  });

  it('reads `done X;` as the action\'s done, even where X is a keyword (`end`), and only in its own body', () => {
    const r = read('package P { action a { action x; done end; first start; then start x; then x end; } }');
    const last = body(r).filter((m): m is Succession => m.kind === 'Succession').at(-1)!;
    assert.equal(name(last.target), 'done');
    assert.match(r.warnings[0]!.message, /`done end;` declares a final node; SysML v2 writes a succession to `done`/);
    assert.deepEqual(warnings(r).at(-1), '1:71: `first x then done;`');
    // A nested body does not see the outer marker: the name stays as written (and resolves or not on its own).
    const nested = read('package P { action a { done fin; action b { action x; first start; then x fin; } } }');
    const inner = (body(nested).find((m) => m.kind === 'Usage') as { body: Member[] }).body;
    assert.equal(name((inner.at(-1) as Succession).target), 'fin');
  });

  it('reads `initial X;`, `final X;`, `X then S;` and `transition S to T` in a state as its entry, done and transitions', () => {
    const r = read('package P { state m { initial boot; state a; state b; final stop; boot then a; transition a to b when Go do { assign n := 1; }; transition b to stop; } }');
    const members = body(r);
    const first = members.find((m): m is Succession => m.kind === 'Succession')!;
    assert.deepEqual([name(first.source), name(first.target)], ['start', 'a']);
    const transitions = members.filter((m): m is Transition => m.kind === 'Transition');
    assert.deepEqual(transitions.map((t) => [refName(t.source), refName(t.target), t.trigger !== null, t.effect !== null]), [
      ['a', 'b', true, true], ['b', 'done', false, false],
    ]);
    assert.deepEqual(r.warnings.map((w) => w.standard), [
      '`entry; then S;` for the initial state (`boot then S;` names it)',
      'a transition to `done` (`transition first S then done;`)',
      '`entry; then a;`',
      '`transition first a accept Go do … then b;`',
      '`do action { … }`',
      '`transition first b then done;`',
    ]);
  });

  it('reads a bare `entry/exit/do { … }` block as an action in place, and `x = e;` inside it as OpenSysML\'s assignment', () => {
    const r = read('package P { state m { attribute n : Integer := 0; state s { entry { n = n + 1; } exit { assign n := 0; } } } }');
    const s = body(r).find((m) => m.kind === 'Usage' && m.keyword === 'state') as { body: Member[] };
    const entry = s.body[0] as { kind: string; which: string; action: { kind: string; keyword: string; body: Member[] } };
    assert.equal(entry.kind, 'StateSubaction');
    assert.equal(entry.action.keyword, 'action');
    assert.equal(entry.action.body[0]!.kind, 'AssignAction');
    assert.deepEqual(r.warnings.map((w) => w.standard), ['`entry action { … }`', '`assign n := …;`', '`exit action { … }`']);
  });

  it('reads `return <expression>;` in a calc as `return = <expression>;`, and leaves `return x;` a declaration', () => {
    const r = read('package P { calc def c { in a : Real; in b : Real; return a - b; } }');
    const ret = body(r).at(-1) as { kind: string; role: string; name: string | null; value: { isInitial: boolean } | null };
    assert.deepEqual([ret.kind, ret.role, ret.name, ret.value?.isInitial], ['Usage', 'return', null, false]);
    assert.deepEqual(warnings(r), ['1:52: `return = <expression>;`']);
    for (const standard of ['return r;', 'return : Real = a - b;', 'return r : Real;', 'return = a - b;']) {
      assert.deepEqual(read(`package P { calc def c { in a : Real; in b : Real; ${standard} } }`).warnings, [], standard);
    }
  });

  it('reads `require/assume/assert <expression>;` as a constraint declared in place, and leaves `require c;` and `require c.d;` references', () => {
    const r = read('package P { requirement r { subject s : Real; assume s > 0; require s < 100; } constraint c { assert not false; } }');
    const pkg = r.document.members[0] as { members: { body: Member[] }[] };
    const roles = pkg.members.flatMap((m) => m.body).filter((m) => m.kind === 'Usage' && m.role !== 'subject')
      .map((m) => { const u = m as { role: string; keyword: string; isNegated: boolean; body: Member[] }; return [u.role, u.keyword, u.isNegated, u.body.map((b) => b.kind).join()]; });
    assert.deepEqual(roles, [['assume', 'constraint', false, 'ResultExpression'], ['require', 'constraint', false, 'ResultExpression'], ['assert', 'constraint', true, 'ResultExpression']]);
    assert.deepEqual(r.warnings.map((w) => w.standard), ['`assume constraint { <expression> }`', '`require constraint { <expression> }`', "the condition as the constraint's expression (`constraint c { not <expression> }`, several joined by `and`)"]);
    assert.deepEqual(read('package P { constraint c; requirement r { require c; require c.d; assert c; } }').warnings, []);
  });

  it('reads `region r { … }` as a substate of a state that is then parallel; a plain substate beside regions is an error', () => {
    const r = read('package P { state def M { region left { state a; } region right { state b; } } state m { state inner { region x { state c; } } } }');
    const pkg = r.document.members[0] as { members: { kind: string; isParallel: boolean; body: { keyword?: string; name?: string; isParallel?: boolean; body?: unknown }[] }[] };
    const [def, usage] = pkg.members;
    assert.equal(def!.isParallel, true);
    assert.deepEqual(def!.body.map((m) => [m.keyword, m.name]), [['state', 'left'], ['state', 'right']]);
    assert.equal(usage!.isParallel, false, 'm holds no region itself');
    assert.equal(usage!.body[0]!.isParallel, true, 'inner holds one');
    assert.deepEqual(r.warnings.map((w) => w.standard), [
      '`state left { … }` in a state declared `parallel`', '`state right { … }` in a state declared `parallel`', '`state x { … }` in a state declared `parallel`',
    ]);
    const mixed = parse('package P { state def M { state loose; region left { state a; } } }');
    assert.deepEqual(mixed.errors.map((e) => `${e.range.line}:${e.range.column}: ${e.message}`), ['1:27: a state with regions holds only regions (OpenSysML: `region r { … }`); this substate is in none of them']);
  });

  it('warns of a transition without `first S` that follows no state in a state body, and not of one right after the state it leaves', () => {
    const r = read('package P { state m { entry; then w; state w { accept after 5 then x; } state x; accept after 1 then w; state y { entry; then z; state z; } do action a; accept after 2 then y; } }');
    assert.deepEqual(r.warnings.map((w) => `${w.range.line}:${w.range.column}`), ['1:48', '1:154']);
    assert.ok(r.warnings.every((w) => w.code === 'nonstandard-notation' && /a transition without `first S` that follows no state in a state body/.test(w.message)));
  });

  it('reads a keyword where an action or state name goes (`action decide { … }`) as that name, quoted in SysML v2', () => {
    const r = read('package P { action decide { action a; } state first; state parallel { state x; } }');
    const pkg = r.document.members[0] as { members: { name: string | null; isParallel?: boolean }[] };
    assert.deepEqual(pkg.members.map((m) => m.name), ['decide', 'first', null]);
    assert.deepEqual(r.warnings.map((w) => w.standard), ["`'decide'` (a name spelled like a keyword is quoted)", "`'first'` (a name spelled like a keyword is quoted)"]);
  });

  it('reads a qualified name starting an expression after `assert`/`return` (`assert P::margin(120) > 0;`)', () => {
    const r = read('package P { calc margin { in s : Integer; return 130 - s; } constraint c { assert P::margin(120) > 0; } }');
    assert.deepEqual(r.warnings.map((w) => w.standard), ['`return = <expression>;`', "the condition as the constraint's expression (`constraint c { <expression> }`, several joined by `and`)"]);
    // Outside a constraint's body (a calc's), it stays an asserted constraint.
    assert.deepEqual(read('package P { calc k { in s : Integer; assert s > 0; s } }').warnings.map((w) => w.standard), ['`assert constraint { <expression> }`']);
    assert.deepEqual(read('package P { constraint k; requirement r { require P::k; } }').warnings, []);
  });

  it('gives no warning on the standard spelling of the notation fixture (the release corpus: test/sysml/corpus.test.ts)', () => {
    assert.deepEqual(read(readFileSync(join(NOTATION, 'standard.sysml'), 'utf8')).warnings, []);
  });

  it('keeps `x = e;` over a declared feature an error outside OpenSysML\'s blocks (it declares, in SysML v2)', () => {
    const r = parse('package P { action a { attribute n : Integer := 0; action s { n = n + 1; } } }');
    assert.match(r.errors[0]?.message ?? '', /declares a new feature 'n', it does not assign/);
    assert.deepEqual(r.warnings, []);
  });

  it('reads the whole notation fixture with one warning per construct, in text order', () => {
    const r = read(readFileSync(join(NOTATION, 'opensysml.sysml'), 'utf8'));
    assert.equal(r.warnings.length, 16);
    const starts = r.warnings.map((w) => w.range.start);
    assert.deepEqual(starts, [...starts].sort((a, b) => a - b));
  });
});
