import { strict as assert } from 'node:assert';
import {
  parse, walk, childrenOf, sourceOf, type AcceptAction, type Definition, type Expression, type IfAction, type Import, type LoopAction, type Member,
  type Package, type ParseResult, type StateSubaction, type Succession, type Transition, type Usage,
} from '../../src/sysml';

function ok(text: string, language: 'sysml' | 'kerml' = 'sysml'): ParseResult {
  const result = parse(text, { language });
  assert.deepEqual(result.errors.map((e) => `${e.range.line}:${e.range.column}: ${e.message}`), [], 'no syntax errors');
  return result;
}
function members(text: string, language: 'sysml' | 'kerml' = 'sysml'): Member[] {
  return ok(text, language).document.members;
}
function only<T extends Member['kind']>(ms: Member[] | null, kind: T): Extract<Member, { kind: T }> {
  assert.ok(ms !== null, 'has a body');
  assert.equal(ms.length, 1, `one member, got ${ms.map((m) => m.kind).join(', ')}`);
  assert.equal(ms[0]!.kind, kind);
  return ms[0] as Extract<Member, { kind: T }>;
}
function bodyOf(m: Member): Member[] {
  assert.ok('body' in m && Array.isArray(m.body), `${m.kind} has a body`);
  return m.body as Member[];
}
/** Compact text of an expression tree, to assert grouping. */
function show(e: Expression | null): string {
  if (e === null) return '∅';
  switch (e.kind) {
    case 'Literal': return e.literal === 'string' ? JSON.stringify(e.value) : String(e.value);
    case 'Null': return 'null';
    case 'Name': return e.name.segments.join('::');
    case 'Unary': return `(${e.operator} ${show(e.operand)})`;
    case 'Binary': return `(${show(e.left)} ${e.operator} ${show(e.right)})`;
    case 'Conditional': return `(if ${show(e.condition)} ? ${show(e.then)} else ${show(e.else)})`;
    case 'Classification': return `(${e.operand ? show(e.operand) + ' ' : ''}${e.operator} ${e.type.segments.join('::')})`;
    case 'Extent': return `(all ${e.type.segments.join('::')})`;
    case 'MemberAccess': return `${show(e.target)}.${e.member.segments.join('::')}`;
    case 'Collect': return `${show(e.target)}.{…}`;
    case 'Select': return `${show(e.target)}.?{…}`;
    case 'Index': return `${show(e.target)}#(${show(e.index)})`;
    case 'Quantity': return `${show(e.value)}[${show(e.unit)}]`;
    case 'Sequence': return `(${e.items.map(show).join(', ')})`;
    case 'Invocation': {
      const callee = e.callee.kind === 'QualifiedName' ? e.callee.segments.join('::') : e.callee.chain.map((q) => q.segments.join('::')).join('.');
      return `${callee}(${e.args.map((a) => (a.name ? `${a.name}=` : '') + show(a.value)).join(', ')})`;
    }
    case 'ArrowInvocation': {
      const callee = e.callee.kind === 'QualifiedName' ? e.callee.segments.join('::') : '…';
      return `${show(e.target)}->${callee}(${e.args.map((a) => show(a.value)).join(', ')})`;
    }
    case 'Constructor': return `new ${e.type.kind === 'QualifiedName' ? e.type.segments.join('::') : '…'}(${e.args.map((a) => (a.name ? `${a.name}=` : '') + show(a.value)).join(', ')})`;
    case 'Body': return `{${e.members.length}; ${show(e.result)}}`;
    case 'MetadataAccess': return `${e.target.segments.join('::')}.metadata`;
    case 'Missing': return '?';
  }
}
function valueOf(text: string): string {
  const u = only(members(`attribute a = ${text};`), 'Usage');
  assert.ok(u.value);
  return show(u.value.expression);
}

describe('sysml parser: packages and imports', () => {
  it('reads packages, library packages and every import form', () => {
    const [lib] = members('standard library package Lib { private import ISQ::*; public import all A::B::**; import C::*::**; import D::E; import F::*[@Safety][not (hastype X)]; }');
    assert.ok(lib && lib.kind === 'Package');
    assert.equal(lib.name, 'Lib');
    assert.ok(lib.isStandard && lib.isLibrary);
    const imports = lib.members as Import[];
    assert.deepEqual(imports.map((i) => [i.visibility, i.isImportAll, i.target.segments.join('::'), i.isNamespace, i.isRecursive]), [
      ['private', false, 'ISQ', true, false],
      ['public', true, 'A::B', false, true],
      [null, false, 'C', true, true],
      [null, false, 'D::E', false, false],
      [null, false, 'F', true, false],
    ]);
    assert.deepEqual(imports[4]!.filters.map(show), ['(@ Safety)', '(not (hastype X))']);
  });

  it('reads aliases, dependencies and unrestricted names', () => {
    const ms = members(`package 'My Pkg' { alias <S> Short for A::'long name'; dependency d from x, y to z; dependency a to b; }`);
    const pkg = ms[0] as Package;
    assert.equal(pkg.name, 'My Pkg');
    const [alias, dep, dep2] = pkg.members!;
    assert.ok(alias?.kind === 'Alias' && alias.shortName === 'S' && alias.name === 'Short');
    assert.deepEqual(alias.target.segments, ['A', 'long name']);
    assert.ok(dep?.kind === 'Dependency' && dep.name === 'd');
    assert.deepEqual(dep.clients.map((c) => c.segments[0]), ['x', 'y']);
    assert.deepEqual(dep.suppliers.map((c) => c.segments[0]), ['z']);
    assert.ok(dep2?.kind === 'Dependency' && dep2.name === null && dep2.clients[0]!.segments[0] === 'a');
  });
});

describe('sysml parser: definitions and usages', () => {
  it('reads specializations, typings, redefinitions, multiplicities and values', () => {
    const def = only(members(`abstract part def Vehicle :> Base, Other {
      part engine : Engine[1..*] ordered nonunique;
      attribute mass : MassValue = 1500 [kg];
      ref :>> driver : Person default := p;
      port fuel : ~FuelPort;
      part wheels[4] :> parts subsets allParts redefines Car::wheels;
      attribute speed :: > x;
    }`.replace('attribute speed :: > x;', 'ref r ::> other.feature;')), 'Definition');
    assert.equal(def.keyword, 'part');
    assert.ok(def.isAbstract);
    assert.deepEqual(def.relations.map((r) => [r.relation, (r.target as { segments: string[] }).segments[0]]), [['specialization', 'Base'], ['specialization', 'Other']]);
    const [engine, mass, driver, fuel, wheels, r] = def.body as Usage[];
    assert.equal(engine!.keyword, 'part');
    assert.equal(show(engine!.multiplicity!.lower), '1');
    assert.equal(show(engine!.multiplicity!.upper), 'Infinity');
    assert.ok(engine!.isOrdered && engine!.isNonunique);
    assert.equal(show(mass!.value!.expression), '1500[kg]');
    assert.ok(!mass!.value!.isInitial && !mass!.value!.isDefault);
    assert.equal(driver!.keyword, 'ref');
    assert.ok(driver!.isKeywordImplicit && driver!.name === null);
    assert.deepEqual(driver!.relations.map((x) => x.relation), ['redefinition', 'typing']);
    assert.ok(driver!.value!.isDefault && driver!.value!.isInitial);
    assert.ok(fuel!.relations[0]!.isConjugated);
    assert.equal(show(wheels!.multiplicity!.upper), '4');
    assert.equal(wheels!.multiplicity!.lower, null);
    assert.deepEqual(wheels!.relations.map((x) => x.relation), ['subsetting', 'subsetting', 'redefinition']);
    assert.equal(r!.relations[0]!.relation, 'reference');
    assert.equal(r!.relations[0]!.target.kind, 'FeatureChain');
  });

  it('gives every definition keyword its kind', () => {
    const keywords = ['attribute', 'enum', 'occurrence', 'item', 'part', 'port', 'connection', 'flow', 'interface',
      'allocation', 'action', 'state', 'calc', 'constraint', 'requirement', 'concern', 'case', 'analysis',
      'verification', 'use case', 'view', 'viewpoint', 'rendering', 'metadata'];
    const ms = members(keywords.map((k, i) => `${k} def D${i};`).join('\n'));
    assert.deepEqual(ms.map((m) => (m as Definition).keyword), keywords);
    assert.deepEqual(ms.map((m) => (m as Definition).name), keywords.map((_, i) => `D${i}`));
  });

  it('reads usage prefixes: direction, derived, constant, end, variation, individual, snapshot', () => {
    const def = only(members('part def P { in attribute x : Real; out derived constant ref y; end part e : E; variation part v { variant part a; } individual part i; snapshot part s; }'), 'Definition');
    const [x, y, e, v, i, s] = def.body as Usage[];
    assert.equal(x!.direction, 'in');
    assert.ok(y!.direction === 'out' && y!.isDerived && y!.isConstant && y!.isRef);
    assert.ok(e!.isEnd);
    assert.ok(v!.isVariation);
    assert.equal((v!.body![0] as Usage).role, 'variant');
    assert.ok(i!.isIndividual);
    assert.equal(s!.portionKind, 'snapshot');
  });

  it('reads enumerations, connections, bindings, flows and interfaces', () => {
    const ms = members(`
      enum def Color { enum red; green; = 3; }
      part p {
        connect a.x to b.y;
        connection c : C connect (a, b, c);
        bind x = y.z;
        flow of Fuel from tank.fuelOut to engine.fuelIn;
        message m of Sig from a to b;
        interface i : I connect [1] p1 ::> a.p to p2 ::> b.p;
        allocate f to g;
        succession flow sf from a.o to b.i;
      }`);
    const color = ms[0] as Definition;
    assert.deepEqual((color.body as Usage[]).map((u) => [u.keyword, u.name]), [['enum', 'red'], ['enum', 'green'], ['enum', null]]);
    const [connect, connection, bind, flow, message, iface, allocate, sflow] = bodyOf(ms[1]!) as Usage[];
    assert.deepEqual(connect!.ends!.map((e) => e.target.kind), ['FeatureChain', 'FeatureChain']);
    assert.equal(connect!.keyword, 'connection');
    assert.equal(connection!.ends!.length, 3);
    assert.equal(connection!.name, 'c');
    assert.equal(bind!.keyword, 'binding');
    assert.equal(bind!.ends!.length, 2);
    assert.equal(flow!.keyword, 'flow');
    assert.equal((flow!.payload!.relations[0]!.target as { segments: string[] }).segments[0], 'Fuel');
    assert.equal(flow!.ends!.length, 2);
    assert.equal(message!.keyword, 'message');
    assert.equal(message!.payload!.relations[0]!.relation, 'typing');
    assert.deepEqual(iface!.ends!.map((e) => e.name), ['p1', 'p2']);
    assert.equal(show(iface!.ends![0]!.multiplicity!.upper), '1');
    assert.equal(allocate!.keyword, 'allocation');
    assert.equal(sflow!.keyword, 'succession flow');
  });
});

describe('sysml parser: behaviour', () => {
  it('reads successions, control nodes and guarded successions of an action', () => {
    const def = only(members(`action def Drive {
      first start;
      then merge m;
      then accelerate;
      action accelerate;
      decide d;
        if speed > 10 then brake;
        else accelerate;
      succession s first accelerate then done;
      first brake then [1] done;
      fork f; then a1; then a2;
      join j;
      action a1; action a2; action brake;
    }`), 'Definition');
    const b = def.body!;
    const firstStart = b[0] as Succession;
    assert.equal(firstStart.form, 'first');
    assert.equal((firstStart.source!.target as { segments: string[] }).segments[0], 'start');
    assert.equal(firstStart.target, null);
    const thenMerge = b[1] as Succession;
    assert.equal(thenMerge.form, 'then');
    assert.equal(thenMerge.targetMember?.kind, 'Usage');
    assert.equal((thenMerge.targetMember as Usage).keyword, 'merge');
    assert.equal((b[2] as Succession).source, null);
    assert.equal((b[4] as Usage).keyword, 'decide');
    const guarded = b[5] as Succession;
    assert.equal(guarded.form, 'guarded');
    assert.equal(show(guarded.guard), '(speed > 10)');
    assert.equal((b[6] as Succession).form, 'else');
    const named = b[7] as Succession;
    assert.ok(named.form === 'succession' && named.name === 's' && named.source && named.target);
    assert.equal(show((b[8] as Succession).target!.multiplicity!.upper), '1');
    assert.deepEqual([b[9], b[12]].map((m) => (m as Usage).keyword), ['fork', 'join']);
  });

  it('reads accept, send, assign, if/else, while, loop, for and terminate nodes', () => {
    const def = only(members(`action def A {
      accept sig : Signal via port1;
      accept after 5 [s];
      action wait accept at deadline;
      accept when temp > 100;
      send new Start(1) via port1 to target;
      assign counter := counter + 1;
      if x > 0 { action pos; } else if x < 0 { action neg; } else { }
      while i < 10 { assign i := i + 1; } until done;
      loop { } until stop;
      for e : Item in items { }
      terminate self;
    }`), 'Definition');
    const [acc, after, wait, when, send, assign, ifA, whileA, loopA, forA, term] = def.body!;
    const a = acc as AcceptAction;
    assert.equal(a.payload!.name, 'sig');
    assert.equal(show(a.receiver), 'port1');
    assert.ok((after as AcceptAction).triggerKind === 'after' && show((after as AcceptAction).triggerExpression) === '5[s]');
    assert.ok((wait as AcceptAction).name === 'wait' && (wait as AcceptAction).triggerKind === 'at');
    assert.equal(show((when as AcceptAction).triggerExpression), '(temp > 100)');
    assert.ok(send!.kind === 'SendAction');
    assert.deepEqual([show(send.payload), show(send.via), show(send.to)], ['new Start(1)', 'port1', 'target']);
    assert.ok(assign!.kind === 'AssignAction');
    assert.deepEqual([show(assign.target), show(assign.assigned)], ['counter', '(counter + 1)']);
    const i = ifA as IfAction;
    assert.equal(show(i.condition), '(x > 0)');
    assert.equal((i.then.body![0] as Usage).name, 'pos');
    assert.equal(i.else?.kind, 'IfAction');
    assert.equal(((i.else as IfAction).else as Usage).keyword, 'action');
    const w = whileA as LoopAction;
    assert.ok(w.form === 'while' && show(w.condition) === '(i < 10)' && show(w.until) === 'done');
    assert.equal(w.bodyAction.body![0]!.kind, 'AssignAction');
    assert.ok((loopA as LoopAction).form === 'loop' && (loopA as LoopAction).condition === null);
    assert.ok(forA!.kind === 'ForAction' && forA.variable.name === 'e' && show(forA.collection) === 'items');
    assert.ok(term!.kind === 'TerminateAction' && show(term.target) === 'self');
  });

  it('reads states: entry/do/exit, transitions in full and shorthand, parallel', () => {
    const def = only(members(`state def Machine {
      entry; then off;
      state off { entry action init; do send ping() to peer; exit assign count := 0; }
      accept Start then on;
      state on parallel { state a; state b; }
      transition t first on accept after 5 [s] if ready do action log then off;
      transition first off accept s : Sig via p then on;
      if emergency then off;
    }`), 'Definition');
    const b = def.body!;
    const entry = b[0] as StateSubaction;
    assert.ok(entry.kind === 'StateSubaction' && entry.which === 'entry' && entry.action === null);
    const initial = b[1] as Transition;
    assert.ok(initial.kind === 'Transition' && initial.source === null);
    assert.deepEqual((initial.target as { segments: string[] }).segments, ['off']);
    const off = b[2] as Usage;
    assert.deepEqual(off.body!.map((m) => [(m as StateSubaction).which, (m as StateSubaction).action?.kind]), [
      ['entry', 'Usage'], ['do', 'SendAction'], ['exit', 'AssignAction'],
    ]);
    const short = b[3] as Transition;
    assert.ok(short.kind === 'Transition' && short.source === null && short.trigger !== null);
    assert.equal((short.trigger.payload!.relations[0]!.target as { segments: string[] }).segments[0], 'Start');
    assert.ok((b[4] as Usage).isParallel);
    const full = b[5] as Transition;
    assert.equal(full.name, 't');
    assert.deepEqual((full.source as { segments: string[] }).segments, ['on']);
    assert.equal(full.trigger!.triggerKind, 'after');
    assert.equal(show(full.guard), 'ready');
    assert.equal((full.effect as Usage).name, 'log');
    assert.deepEqual((full.target as { segments: string[] }).segments, ['off']);
    const viaPort = b[6] as Transition;
    assert.ok(viaPort.name === null && viaPort.trigger!.payload!.name === 's' && show(viaPort.trigger!.receiver) === 'p');
    const guardOnly = b[7] as Transition;
    assert.ok(guardOnly.kind === 'Transition' && show(guardOnly.guard) === 'emergency');
  });

  it('reads calcs and constraints with parameters and a result expression', () => {
    const [calc, cons] = members(`
      calc def Power { in force : ForceValue; in speed : SpeedValue; return : PowerValue; force * speed }
      constraint def Limit { in m : MassValue; m <= 1000 [kg] }`);
    const body = bodyOf(calc!);
    assert.deepEqual(body.map((m) => m.kind), ['Usage', 'Usage', 'Usage', 'ResultExpression']);
    assert.equal((body[2] as Usage).role, 'return');
    assert.equal(show((body[3] as { expression: Expression }).expression), '(force * speed)');
    const cb = bodyOf(cons!);
    assert.equal(show((cb[1] as { expression: Expression }).expression), '(m <= 1000[kg])');
  });
});

describe('sysml parser: requirements, cases and metadata', () => {
  it('reads subject, require/assume, frame, actor, satisfy and verify', () => {
    const ms = members(`
      requirement def MassReq { subject v : Vehicle; require constraint { v.mass <= 2000 [kg] } assume c; frame concern fc; actor d : Driver; stakeholder o : Owner; }
      part car { satisfy MassReq by vehicle; assert not satisfy requirement r2 : R by vehicle.engine; }
      verification def VT { subject s; objective { verify MassReq; } }
      analysis def Trade { subject alts; objective obj; return best = alts->max(); }
      use case def Trip { actor d; include use case drive; }`);
    const req = bodyOf(ms[0]!) as Usage[];
    assert.deepEqual(req.map((u) => [u.role, u.keyword]), [
      ['subject', 'ref'], ['require', 'constraint'], ['assume', 'constraint'], ['frame', 'concern'], ['actor', 'part'], ['stakeholder', 'part'],
    ]);
    assert.equal(req[2]!.relations[0]!.relation, 'reference');
    const [sat, neg] = bodyOf(ms[1]!) as Usage[];
    assert.ok(sat!.role === 'satisfy' && show(sat!.satisfiedBy) === 'vehicle');
    assert.ok(neg!.role === 'satisfy' && neg!.isNegated && neg!.name === 'r2' && show(neg!.satisfiedBy) === 'vehicle.engine');
    const objective = bodyOf(ms[2]!)[1] as Usage;
    assert.equal(objective.role, 'objective');
    assert.equal((objective.body![0] as Usage).role, 'verify');
    const trade = bodyOf(ms[3]!) as Usage[];
    assert.equal(show(trade[2]!.value!.expression), 'alts->max()');
    const include = bodyOf(ms[4]!)[1] as Usage;
    assert.ok(include.role === 'include' && include.keyword === 'use case' && include.name === 'drive');
  });

  it('reads comments, documentation, textual representations and metadata', () => {
    const ms = members(`
      /* top comment */
      part def P {
        doc /* The part. */
        comment c about P locale "en" /* about P */
        rep r language "ocl" /* self.x > 0 */
        language "alf" /* x = 1; */
        @Safety { isMandatory = true; }
        metadata m : Approved about P;
      }
      #Safety part def Q;
      // a line note is not a member
      //* neither is a block note */`);
    assert.deepEqual(ms.map((m) => m.kind), ['Comment', 'Definition', 'Definition']);
    assert.equal((ms[0] as { text: string }).text, 'top comment');
    const b = bodyOf(ms[1]!);
    assert.deepEqual(b.map((m) => m.kind), ['Documentation', 'Comment', 'TextualRepresentation', 'TextualRepresentation', 'Usage', 'Usage']);
    assert.equal((b[0] as { text: string }).text, 'The part.');
    const c = b[1] as { name: string; about: { segments: string[] }[]; locale: string; text: string };
    assert.deepEqual([c.name, c.about[0]!.segments[0], c.locale, c.text], ['c', 'P', 'en', 'about P']);
    assert.deepEqual([(b[2] as { language: string }).language, (b[2] as { text: string }).text], ['ocl', 'self.x > 0']);
    const safety = b[4] as Usage;
    assert.equal(safety.keyword, 'metadata');
    assert.equal((safety.body![0] as Usage).relations[0]!.relation, 'redefinition');
    const m = b[5] as Usage;
    assert.ok(m.name === 'm' && m.about[0]!.segments[0] === 'P');
    assert.equal((ms[2] as Definition).prefixMetadata[0]!.segments[0], 'Safety');
  });
});

describe('sysml parser: expressions', () => {
  it('groups operators by precedence, exponentiation to the right', () => {
    assert.equal(valueOf('a + b * c ** d ** e'), '(a + (b * (c ** (d ** e))))');
    assert.equal(valueOf('a or b and c == d'), '(a or (b and (c == d)))');
    assert.equal(valueOf('a ?? b implies c xor d'), '(a ?? (b implies (c xor d)))');
    assert.equal(valueOf('a | b & c'), '(a | (b & c))');
    assert.equal(valueOf('1..n - 1'), '(1 .. (n - 1))');
    assert.equal(valueOf('a < b === c !== d'), '(((a < b) === c) !== d)');
    assert.equal(valueOf('-x ** 2'), '((- x) ** 2)');
    assert.equal(valueOf('not a and ~b'), '((not a) and (~ b))');
    assert.equal(valueOf('a - b - c'), '((a - b) - c)');
    assert.equal(valueOf('if x > 0 ? x else -x'), '(if (x > 0) ? x else (- x))');
  });

  it('reads classification, casts, metadata and extent expressions', () => {
    assert.equal(valueOf('x istype T and y hastype U'), '((x istype T) and (y hastype U))');
    assert.equal(valueOf('(x as Vehicle).mass'), '(x as Vehicle).mass');
    assert.equal(valueOf('x @ T'), '(x @ T)');
    assert.equal(valueOf('e @@ Safety'), '(e @@ Safety)');
    assert.equal(valueOf('e meta SysML::PartUsage'), '(e meta SysML::PartUsage)');
    assert.equal(valueOf('all Vehicle'), '(all Vehicle)');
    assert.equal(valueOf('P.metadata'), 'P.metadata');
  });

  it('reads invocations, chains, arrows with bodies, index, quantities, sequences and literals', () => {
    assert.equal(valueOf('f(1, 2)'), 'f(1, 2)');
    assert.equal(valueOf('Pkg::f(x = 1, y = "s")'), 'Pkg::f(x=1, y="s")');
    assert.equal(valueOf('a.b.c(1)'), 'a.b.c(1)');
    assert.equal(valueOf('list->select { in e; e > 0 }->size()'), 'list->select({1; (e > 0)})->size()');
    assert.equal(valueOf("xs->reduce '+'"), 'xs->reduce(+)');
    assert.equal(valueOf('xs.{ in x; x * 2 }'), 'xs.{…}');
    assert.equal(valueOf('xs.?{ in x; x > 1 }'), 'xs.?{…}');
    assert.equal(valueOf('v#(2)'), 'v#(2)');
    assert.equal(valueOf('9.81 [m/s^2]'), '9.81[(m / (s ^ 2))]');
    assert.equal(valueOf('(1, 2, 3,)'), '(1, 2, 3)');
    assert.equal(valueOf('()'), 'null');
    assert.equal(valueOf('new Point(x = 1)'), 'new Point(x=1)');
    assert.equal(valueOf('1.5E3 + .5 + 2e-1 + 7'), '(((1500 + 0.5) + 0.2) + 7)');
    assert.equal(valueOf('"tab\\tquote\\""'), JSON.stringify('tab\tquote"'));
    assert.equal(valueOf("'a name'"), 'a name');
    assert.equal(valueOf('$::Top::x'), 'Top::x');
    assert.equal(valueOf('*'), 'Infinity');
    assert.equal(valueOf('true or false or null'), '((true or false) or null)');
  });
});

describe('kerml parser', () => {
  it('reads classifiers, features and relationship declarations', () => {
    const ms = members(`
      package K {
        abstract class Thing specializes Anything { feature parts : Thing[0..*] ordered; }
        struct S :> Thing; datatype D; assoc A { end feature a : Thing; end feature b : Thing; }
        assoc struct AS; behavior B { step s : B; succession s then s; } function F { in x : Real; return : Real; x * 2 }
        predicate P { in x; x > 0 } metaclass M; classifier C; type T :> C;
        feature f : D chains a.b;
        expr e = 1 + 2; bool b1 { true } inv { 1 < 2 } inv false c { false }
        connector c from a to b; binding bb of x = y; multiplicity m [1..2];
        specialization Sp subclassifier S specializes Thing;
        subset f subsets g; redefinition f redefines g; conjugate C ~ D; disjoint A from B;
        featuring f by C; inverse f of g;
        namespace N { private member feature x; }
      }`, 'kerml');
    const body = (ms[0] as Package).members!;
    const kinds = body.map((m) => (m.kind === 'Definition' || m.kind === 'Usage' ? `${m.kind}:${m.keyword}` : m.kind));
    assert.deepEqual(kinds, [
      'Definition:class', 'Definition:struct', 'Definition:datatype', 'Definition:assoc', 'Definition:assoc struct',
      'Definition:behavior', 'Definition:function', 'Definition:predicate', 'Definition:metaclass',
      'Definition:classifier', 'Definition:type', 'Usage:feature', 'Usage:expr', 'Usage:bool', 'Usage:inv', 'Usage:inv',
      'Usage:connector', 'Usage:binding', 'Usage:multiplicity', 'RelationshipDeclaration', 'RelationshipDeclaration',
      'RelationshipDeclaration', 'RelationshipDeclaration', 'RelationshipDeclaration', 'RelationshipDeclaration',
      'RelationshipDeclaration', 'Package',
    ]);
    assert.equal((body[14] as Usage).isNegated, false);
    assert.equal((body[15] as Usage).isNegated, true);
    assert.equal((body[16] as Usage).ends!.length, 2);
    assert.deepEqual(body.slice(19, 26).map((m) => (m as { relation: string }).relation), [
      'specialization', 'subsetting', 'redefinition', 'conjugation', 'disjoining', 'featuring', 'inverting',
    ]);
    const behavior = bodyOf(body[5]!);
    assert.ok(behavior[1]!.kind === 'Succession' && behavior[1].source !== null && behavior[1].target !== null);
    assert.equal(bodyOf(body[6]!).at(-1)!.kind, 'ResultExpression');
  });

  it('treats SysML keywords as names in KerML and KerML keywords as names in SysML', () => {
    const k = members('feature part : Real; feature action;', 'kerml');
    assert.deepEqual(k.map((m) => (m as Usage).name), ['part', 'action']);
    const s = members('attribute type : String; attribute feature;');
    assert.deepEqual(s.map((m) => (m as Usage).name), ['type', 'feature']);
  });
});

describe('sysml parser: ranges kept as offsets', () => {
  const text = 'part def V :> Base {\n  attribute <m1> mass : Real [1] = 1 + 2 [kg];\n  port e : ~Engine;\n}\n';
  const slice = (r: { start: number; end: number }) => text.slice(r.start, r.end);

  it('reads the same range, names included, every time it is asked, for each kind of node', () => {
    const v = ok(text).document.members[0] as Definition;
    const mass = v.body![0] as Usage;
    const sum = mass.value!.expression as Expression & { kind: 'Binary' };
    const quantity = sum.right as Expression & { kind: 'Quantity' };
    const nodes: Array<[{ range: unknown }, string]> = [
      [v, text.slice(0, text.length - 1)], [v.relations[0]!, 'Base'], [v.relations[0]!.target, 'Base'],
      [(v.body![1] as Usage).relations[0]!, '~Engine'], [(v.body![1] as Usage).relations[0]!.target, 'Engine'],
      [mass, 'attribute <m1> mass : Real [1] = 1 + 2 [kg];'], [mass.relations[0]!, 'Real'], [mass.multiplicity!, '[1]'],
      [mass.value!, '= 1 + 2 [kg]'], [sum, '1 + 2 [kg]'], [sum.left, '1'], [quantity, '2 [kg]'], [quantity.unit, 'kg'],
    ];
    for (const [node, written] of nodes) {
      assert.equal(slice(node.range as { start: number; end: number }), written);
      assert.deepEqual(node.range, node.range, 'two reads give equal ranges');
    }
    assert.equal(slice(v.nameRange!), 'V');
    assert.equal(slice(mass.nameRange!), 'mass', 'the name, not the short name written before it');
    assert.deepEqual([mass.range.line, mass.range.column, mass.range.endLine, mass.range.endColumn], [2, 3, 2, 47]);
    assert.equal((v.body![1] as Usage).nameRange!.line, 3);
  });

  it('gives connector ends, arguments, result expressions and state subactions the range of their text', () => {
    const t = 'part def C { connect [1] a.x to e ::> b.y; }\ncalc def K { in x; f(x, n = 2) }\nstate def S { state on { entry action warm; } }\n';
    const [c, k, st] = ok(t).document.members as [Definition, Definition, Definition];
    const ends = (c.body![0] as Usage).ends!;
    const result = k.body![1] as Member & { kind: 'ResultExpression' };
    const call = result.expression as Expression & { kind: 'Invocation' };
    const entry = ((st.body![0] as Usage).body![0]) as StateSubaction;
    const written = [...ends, result, call, ...call.args, entry].map((n) => t.slice(n.range.start, n.range.end));
    assert.deepEqual(written, ['[1] a.x', 'e ::> b.y', 'f(x, n = 2)', 'f(x, n = 2)', 'x', 'n = 2', 'entry action warm;']);
    assert.deepEqual(JSON.parse(JSON.stringify(call.args[1])), { kind: 'Argument', name: 'n', value: JSON.parse(JSON.stringify(call.args[1]!.value)), range: JSON.parse(JSON.stringify(call.args[1]!.range)) });
  });

  it('writes ranges and name ranges out as JSON, with lines and columns', () => {
    const v = ok(text).document.members[0] as Definition;
    const json = JSON.parse(JSON.stringify(v)) as { range: Record<string, number>; nameRange: Record<string, number>; relations: Array<{ range: Record<string, number>; isConjugated: boolean }>; body: Array<Record<string, any>> };
    assert.deepEqual(json.range, { start: 0, end: text.length - 1, line: 1, column: 1, endLine: 4, endColumn: 2 });
    assert.deepEqual(json.nameRange, { start: 9, end: 10, line: 1, column: 10, endLine: 1, endColumn: 11 });
    assert.deepEqual([json.relations[0]!.isConjugated, json.relations[0]!.range.column, json.relations[0]!.range.endColumn], [false, 15, 19]);
    const port = json.body[1]!;
    assert.deepEqual([port.relations[0].isConjugated, port.relations[0].range.column, port.relations[0].target.range.column], [true, 12, 13]);
    const mass = json.body[0]!;
    assert.deepEqual([mass.range.line, mass.nameRange.column, mass.value.range.column, mass.value.expression.left.range.column], [2, 18, 34, 36]);
    assert.deepEqual([mass.value.expression.left.value, mass.value.expression.right.range.column], [1, 40]);
    assert.deepEqual(mass.relations[0].target, { kind: 'QualifiedName', segments: ['Real'], segmentStarts: [text.indexOf('Real')], isGlobal: false, range: mass.relations[0].range });
  });

  it('tells which text a range was parsed from (sourceOf), and nothing for a range made by hand', () => {
    const a = ok(text);
    const b = ok(text);
    const va = a.document.members[0] as Definition;
    const vb = b.document.members[0] as Definition;
    const inner = (va.body![0] as Usage).value!.expression;
    assert.equal(sourceOf(inner.range), sourceOf(a.document.range));
    assert.equal(sourceOf(va.nameRange!), sourceOf(va.range));
    assert.notEqual(sourceOf(vb.range), sourceOf(va.range), 'two parses of one text are two sources');
    assert.equal(sourceOf({ start: 0, end: 1, line: 1, column: 1, endLine: 1, endColumn: 2 }), undefined);
  });
});

describe('sysml parser: ranges and errors', () => {
  it('gives every node a range with 1-based lines and columns', () => {
    const text = 'package P {\n  part def V {\n    attribute m = 1 + 2;\n  }\n}\n';
    const pkg = members(text)[0] as Package;
    assert.deepEqual([pkg.range.line, pkg.range.column, pkg.range.endLine, pkg.range.endColumn], [1, 1, 5, 2]);
    const v = pkg.members![0] as Definition;
    assert.deepEqual([v.range.line, v.range.column, v.nameRange!.line, v.nameRange!.column], [2, 3, 2, 12]);
    const m = v.body![0] as Usage;
    assert.equal(text.slice(m.range.start, m.range.end), 'attribute m = 1 + 2;');
    const e = m.value!.expression;
    assert.equal(text.slice(e.range.start, e.range.end), '1 + 2');
    assert.deepEqual([e.range.line, e.range.column, e.range.endLine, e.range.endColumn], [3, 19, 3, 24]);
  });

  it('reports a missing semicolon at the end of the line it belongs to, and keeps parsing', () => {
    const result = parse('package P {\n  attribute x : Real\n  attribute y : Real;\n}\n');
    assert.deepEqual(result.errors.map((e) => `${e.range.line}:${e.range.column}: ${e.message}`), [
      "2:21: expected ';' after attribute usage, found 'attribute'",
    ]);
    const pkg = result.document.members[0] as Package;
    assert.deepEqual(pkg.members!.map((m) => (m as Usage).name), ['x', 'y']);
  });

  it('reports every syntax error of a file with its place', () => {
    const result = parse([
      'package P {',
      '  part def { part a : A[1..] ; }',
      '  action a { first s then ; }',
      '  calc c { x + }',
      '  part p : ;',
      '  state s { transition first a then }',
      '  part ok;',
      '}',
      '}',
    ].join('\n'));
    assert.deepEqual(result.errors.map((e) => `${e.range.line}:${e.range.column}: ${e.message}`), [
      "2:28: expected a multiplicity bound after '[', found ']'",
      "3:27: expected a connector end, found ';'",
      "4:16: expected an expression, found '}'",
      "5:12: expected a name after ':', found ';'",
      "6:37: expected a target state, found '}'",
      "9:1: unexpected '}' (no open '{')",
    ]);
    const pkg = result.document.members[0] as Package;
    assert.equal((pkg.members!.at(-1) as Usage).name, 'ok', 'parsing continued after the errors');
  });

  it('reports unclosed blocks, unterminated strings and comments, and stray characters', () => {
    const result = parse('part a {\n  part b {\n    attribute s = "open;\n    /* never closed\n');
    const messages = result.errors.map((e) => `${e.range.line}:${e.range.column}: ${e.message}`);
    assert.ok(messages.includes('3:19: unterminated string: expected \'"\''), messages.join('\n'));
    assert.ok(messages.includes("4:5: unterminated comment: expected '*/'"), messages.join('\n'));
    assert.ok(messages.some((m) => m.includes("expected '}' to close the '{' at 2:10")), messages.join('\n'));
    assert.ok(messages.some((m) => m.includes("expected '}' to close the '{' at 1:8")), messages.join('\n'));
    const stray = parse('part x § ;');
    assert.deepEqual(stray.errors.map((e) => `${e.range.line}:${e.range.column}: ${e.message}`), ["1:8: unexpected character '§'"]);
  });

  it('never throws on garbage, deep nesting or truncated text', () => {
    const inputs = [
      '', '}}}}', ';;;', '{{{{', 'part def', 'attribute x = ', 'package P { part a : ', '((((((((((', '"', "'",
      'if if if then then', '#', '@', 'import ::*;', 'a.b.c->', 'x = 1 + ;',
      '('.repeat(50_000) + '1' + ')'.repeat(50_000),
      'part p {'.repeat(5_000),
      'attribute a = ' + '-'.repeat(100_000) + '1;',
    ];
    for (const text of inputs) {
      const result = parse(text);
      assert.ok(Array.isArray(result.errors));
      if (text.trim() !== '') assert.ok(result.errors.length > 0 || text === '', `an error for ${JSON.stringify(text.slice(0, 30))}`);
    }
  });
});

describe('sysml tree walk', () => {
  it('visits every node once, parents before children, and can skip subtrees', () => {
    const doc = parse('package P { part def A { attribute m = 1 + 2; } part b : A; }').document;
    const kinds: string[] = [];
    walk(doc, (n) => void kinds.push(n.kind));
    assert.deepEqual(kinds, [
      'Document', 'Package', 'Definition', 'Usage', 'FeatureValue', 'Binary', 'Literal', 'Literal',
      'Usage', 'Relation', 'QualifiedName',
    ]);
    const skipped: string[] = [];
    walk(doc, (n) => { skipped.push(n.kind); return n.kind !== 'Definition'; });
    assert.ok(!skipped.includes('FeatureValue'));
    assert.deepEqual(childrenOf(doc.members[0]!).map((n) => n.kind), ['Definition', 'Usage']);
  });
});

describe('sysml tree walk on long chains', () => {
  it('walks a 100 000-term operator chain without overflowing the stack', () => {
    // The parser refuses a tree this high (see the next test), so the tree is built by hand.
    const range = parse('1').document.range;
    const literal = { kind: 'Literal', literal: 'integer', value: 1, range };
    let chain: Record<string, unknown> = literal;
    for (let i = 1; i < 100_000; i++) chain = { kind: 'Binary', operator: '+', left: chain, right: { ...literal }, range };
    let literals = 0;
    walk(chain as unknown as Parameters<typeof walk>[0], (n) => { if (n.kind === 'Literal') literals++; });
    assert.equal(literals, 100_000);
  });

  it('refuses a 100 000-term chain with one diagnostic at its place, so no later walk recurses down it', () => {
    const result = parse(`attribute a = ${Array.from({ length: 100_000 }, () => '1').join(' + ')};`);
    assert.deepEqual(result.errors.map((e) => [e.message, e.range.column]), [
      ['expression nested too deeply (100000 levels; at most 1000 here): split it into named parts', 15],
    ]);
    let deepest = 0;
    walk(result.document, (n) => { if (n.kind === 'Missing') deepest++; });
    assert.equal(deepest, 1);
  });
});

describe('sysml lexer edge cases', () => {
  it('keeps line numbers right after a backslash at the end of an unterminated string', () => {
    const result = parse('attribute s = "abc\\\nattribute t = 1 +;\n');
    const messages = result.errors.map((e) => `${e.range.line}:${e.range.column}: ${e.message}`);
    assert.ok(messages.includes('1:15: unterminated string: expected \'"\''), messages.join('\n'));
    assert.ok(messages.some((m) => m.startsWith('2:')), messages.join('\n'));
  });

  it('ignores a byte-order mark and reads CRLF line ends', () => {
    const result = parse('\ufeffpart a;\r\npart b : ;\r\n');
    assert.deepEqual(result.errors.map((e) => `${e.range.line}:${e.range.column}: ${e.message}`), ["2:10: expected a name after ':', found ';'"]);
    assert.equal(result.lineCount, 2);
  });
});
