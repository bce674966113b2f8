// Never wrong: the behaviour semantics answers the reduced models of ../shared/soundness correctly, and
// refuses — with the construct and its file:line:col — what it does not model (constructs.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from '../../../src/sysml';
import { INERT_CONSTRUCTS, MODELED_CONSTRUCTS, type BehaviorDocument, type BehaviorQuestion } from '../../../src/sysml/behavior';
import { ask, ends, scalarPackage, text, unsupported as refusal } from './asking';

const ROOT = join(__dirname, '..', '..', '..');
const SOUNDNESS = join(ROOT, '..', 'shared', 'soundness');

const file = (name: string): BehaviorDocument => ({ path: name, document: parse(readFileSync(join(SOUNDNESS, name), 'utf8')).document });

function question(kind: BehaviorQuestion['kind'], subject: string, extra: Partial<BehaviorQuestion> = {}): BehaviorQuestion {
  return { kind, subject, schedule: 'all', free: ['schedule'], ...extra };
}

describe('behaviour soundness: the reduced models of ../shared/soundness', () => {
  it('a redefining perform is one feature, never two performances; its own assignment beside the one it inherits is refused naming both', async () => {
    const d = [file('redefined-perform.sysml')];
    // m.bump redefines Machine::bump: it inherits the redefined action's assignment (KerML: a Redefinition
    // is a Specialization) beside its own, two unordered steps that both write count: refused, never 2 or 1.
    assert.match(await refusal(d, question('outcomes', 'RP::m')), /^redefined-perform\.sysml:10:49: 'assign count := …' and 'assign count := …' \(redefined-perform\.sysml:6:38\) are steps of one body with no succession between them, .* one is inherited from 'bump'/);
    const plain = await ask(d, question('outcomes', 'RP::plain'));
    assert.deepEqual(ends(plain, 'count'), [1]);
    // Redefined without a body of its own: one bump, the inherited assignment's.
    const bare = scalarPackage('redefined-bare.sysml', 'RB', `
    part def Machine {
        attribute count : Integer := 0;
        perform action bump { assign count := count + 1; }
    }
    part m : Machine { perform action bump :>> Machine::bump; }
}`);
    const m = await ask([bare], question('outcomes', 'RB::m'));
    assert.deepEqual([m.strength, ends(m, 'count'), ends(m, 'end')], ['proved', [1], ['done']]);
    assert.equal(m.executions![0]!.schedules![0], 'step 1: t1@bump first of t1@bump');
  });

  it('a succession flow orders its ends: one outcome, x = 10, and the pipeline is not sensitive', async () => {
    const d = [file('succession-flow.sysml')];
    const o = await ask(d, question('outcomes', 'SF::Pipeline'));
    assert.deepEqual([o.strength, ends(o, 'x')], ['proved', [10]]);
    const s = await ask(d, question('sensitive', 'SF::Pipeline'));
    assert.deepEqual([s.claim, s.strength], ['none', 'proved']);
    // A plain flow beside `first produce then consume`: the same single outcome.
    const explicit = await ask(d, question('outcomes', 'SF::PipelineExplicit'));
    assert.deepEqual(ends(explicit, 'x'), [10]);
  });

  it('re-entering a parallel state is the same configuration: the exploration ends, proved, in 2 states', async () => {
    const d = [file('parallel-reentry.sysml')];
    const q = question('outcomes', 'PR::M', { free: ['schedule', 'inputs'] });
    const a = await ask(d, q, [{ name: 'depth', limit: 40 }]);
    assert.deepEqual([a.claim, a.strength, a.bounds], ['none', 'proved', [{ name: 'depth', limit: 40 }]]);
    assert.match(a.reason!, /\(2 states, /);
    // The flat machine with the same moves: the same 2 states.
    const flat = await ask(d, question('outcomes', 'PR::Flat', { free: ['schedule', 'inputs'] }), [{ name: 'depth', limit: 40 }]);
    assert.match(flat.reason!, /\(2 states, /);
  });
});

describe('behaviour soundness: flows, bound values, typed subactions', () => {
  const flows = scalarPackage('flows.sysml', 'FV', `
    action def Carry {
        attribute x : Integer := 0;
        action produce { out y : Integer; assign y := 7; }
        succession flow from produce.y to consume.y;
        action consume { in y : Integer; assign x := y * 10; }
    }
    action def Unordered {
        attribute x : Integer := 0;
        action produce { out y : Integer; assign y := 7; }
        flow from produce.y to consume.y;
        action consume { in y : Integer; assign x := y; }
    }
}`);

  it('a flow transfers the source parameter to the target parameter when the source ends', async () => {
    const o = await ask([flows], question('outcomes', 'FV::Carry'));
    assert.deepEqual([ends(o, 'x'), ends(o, 'consume.y')], [[70], [7]]);
  });

  it('a plain flow whose target may start first leaves its parameters outside the model: using one is refused where it is used', async () => {
    assert.equal(await refusal([flows], question('outcomes', 'FV::Unordered')), "flows.sysml:11:43: 'y' is not a feature this behaviour can assign (declare it as an attribute)");
  });

  const bound = scalarPackage('bound.sysml', 'B', `
    action def Track {
        attribute x : Integer := 1;
        attribute y : Integer = x * 2;
        action a { assign x := 5; }
    }
    action def Clash {
        attribute x : Integer = 0;
        action a { assign x := 5; }
    }
    action def Bump { attribute n : Integer := 0; assign n := n + 1; }
    state def S {
        attribute n : Integer := 0;
        entry; then on;
        state on { entry action b : Bump; }
    }
}`);

  it("'=' binds a feature in every state: y follows x; assigning a bound feature is refused", async () => {
    const o = await ask([bound], question('outcomes', 'B::Track'));
    assert.deepEqual([ends(o, 'x'), ends(o, 'y')], [[5], [10]]);
    assert.equal(await refusal([bound], question('outcomes', 'B::Clash')), "bound.sysml:10:20: 'x' is bound to a value ('=' at 9:19) and cannot also be assigned (':=' gives an initial value)");
  });

  it("a parameter bound to a feature ('in x = y') reads that feature: a parallel write of y is not independent of the read, both orders are outcomes", async () => {
    const race = scalarPackage('race.sysml', 'R', `
    action def Race {
        attribute y : Integer := 0;
        attribute r : Integer := 0;
        first start;
        then fork;
          then a;
          then b;
        action a { in x : Integer = y; assign r := x; }
        then j;
        action b { assign y := 1; }
        then j;
        join j;
        then done;
    }
}`);
    // a before b reads y = 0, b before a reads y = 1 (the reduction kept only the first order).
    const o = await ask([race], question('outcomes', 'R::Race'));
    assert.deepEqual(ends(o, 'r').sort(), [0, 1]);
  });

  const bindingModel = scalarPackage('binding.sysml', 'BC', `
    action def Pipe {
        in x : Integer;
        out y : Integer;
        attribute r : Integer := 0;
        bind inc.a = x;
        action inc { in a : Integer; assign r := a + 1; }
        then copy;
        action copy { assign r := r * 10; }
        bind y = r;
    }
    action def BothValued {
        attribute r : Integer := 0;
        attribute s : Integer := 1;
        bind r = s;
    }
    action def AssignsBound {
        in x : Integer;
        bind inc.a = x;
        action inc { in a : Integer; assign a := 3; }
    }
    action def FlowIntoBound {
        in x : Integer;
        bind consume.a = x;
        action produce { out b : Integer; assign b := 7; }
        succession flow from produce.b to consume.a;
        action consume { in a : Integer; }
    }
}`);

  it('a binding connector binds its end without a value to the other: the parameter reads the input, the result follows the attribute', async () => {
    const o = await ask([bindingModel], question('outcomes', 'BC::Pipe', { bindings: [{ name: 'x', value: 4 }] }));
    // inc.a = x = 4, r = 4 + 1 = 5, then r = 50, and y = r in every state.
    assert.deepEqual([ends(o, 'inc.a'), ends(o, 'r'), ends(o, 'y')], [[4], [50], [50]]);
  });

  it('a binding connector between two values, or whose bound end is assigned or a flow target, is refused with its place', async () => {
    assert.match(await refusal([bindingModel], question('outcomes', 'BC::BothValued')), /^binding\.sysml:16:9: the binding connector says that 'r' and 's' are equal, and both have values of their own/);
    assert.match(await refusal([bindingModel], question('outcomes', 'BC::AssignsBound', { bindings: [{ name: 'x', value: 4 }] })), /'inc\.a' is bound to a value .* and cannot also be assigned/);
    assert.match(await refusal([bindingModel], question('outcomes', 'BC::FlowIntoBound', { bindings: [{ name: 'x', value: 4 }] })), /'consume\.a' is bound by the binding connector and is also the target of a flow at 27:9: not modeled/);
  });

  it('a variation action performs one of its variants: each variant is an outcome; a member other than a variant action is refused', async () => {
    const variation = scalarPackage('variation.sysml', 'V', `
    action def Go {
        attribute speed : Integer := 0;
        first start;
        then drive;
        variation action drive {
            variant action eco { assign speed := 50; }
            variant action sport { assign speed := 90; }
        }
        then done;
    }
    variation action def Mixed { variant action a1; attribute x : Integer := 1; }
    action def GoTyped {
        attribute speed : Integer := 0;
        first start;
        then drive;
        action drive : Mode;
        then done;
    }
    variation action def Mode {
        variant action eco { assign speed := 50; }
        variant action sport { assign speed := 90; }
    }
}`);
    const o = await ask([variation], question('outcomes', 'V::Go'));
    assert.deepEqual(ends(o, 'speed').sort(), [50, 90]);
    assert.equal(await refusal([variation], question('outcomes', 'V::Mixed')), 'variation.sysml:13:53: attribute in a variation action is not modeled (its members are its variant actions)');
    // Mode's `speed` names nothing where it is written (GoTyped's speed is not in Mode's scope).
    assert.match(await refusal([variation], question('outcomes', 'V::GoTyped')), /^variation\.sysml:22:37: 'speed' names nothing where it is written/);
  });

  it("'then done' enters a state the model names done where the transition is written (an owned member hides the inherited done); elsewhere it ends the machine", async () => {
    const doneModel = scalarPackage('done.sysml', 'D', `
    state def Own {
        attribute n : Integer := 0;
        entry; then waiting;
        state waiting;
        accept after 5 then done;
        state done { entry assign n := 1; }
    }
    state def Builtin {
        attribute n : Integer := 0;
        entry; then waiting;
        state waiting;
        accept after 5 then done;
        state other { state done { entry assign n := 1; } }
    }
}`);
    const own = await ask([doneModel], question('outcomes', 'D::Own'));
    assert.deepEqual(ends(own, 'n'), [1]);
    assert.deepEqual(ends(own, 'end'), ['deadlock']);
    const builtin = await ask([doneModel], question('outcomes', 'D::Builtin'));
    assert.deepEqual([ends(builtin, 'n'), ends(builtin, 'end')], [[0], ['done']]);
  });

  it("'accept after d' with a negative d waits for an instant already past, which never comes (it fired at once: x = 1)", async () => {
    const d = scalarPackage('negative-delay.sysml', 'ND', `
    action def Neg {
        attribute d : Integer := -3;
        attribute x : Integer := 0;
        first start;
        then accept after d [SI::s];
        then assign x := 1;
    }
}`);
    const o = await ask([d], question('outcomes', 'ND::Neg'));
    assert.deepEqual([o.strength, ends(o, 'x'), ends(o, 'end')], ['proved', [0], ['deadlock']]);
  });

  it("'accept at t' waits for the instant t of the run's clock (an instant already past when the wait begins never comes: Triggers.kerml TimeSignal); a non-constant instant is refused", async () => {
    // Busy from 10 s: `accept at` an instant (n = 1) races a wait of 3 s more (n = 2).
    const busyAt = (name: string, at: number) => `state def ${name} {
        attribute n : Integer := 0;
        entry; then idle;
        state idle;
        accept after 10 [s] then busy;
        state busy;
        accept at ${at} [s] do assign n := 1 then fin;
        accept after 3 [s] do assign n := 2 then fin;
        state fin;
    }`;
    const clocked = scalarPackage('clocked.sysml', 'T', `
    private import SI::*;
    ${busyAt('Past', 5)}
    ${busyAt('Future', 12)}
    state def Loop {
        attribute laps : Integer := 0;
        entry; then a;
        state a;
        accept after 2 [s] then b;
        state b;
        accept at 7 [s] then c;
        accept after 1 [s] do assign laps := laps + 1 then a;
        state c;
    }
    state def Stale {
        entry; then a;
        state a;
        accept after 8 [s] then b;
        state b;
        accept at 7 [s] then c;
        state c;
    }
    state def Exact {
        entry; then a;
        state a;
        accept after 7 [s] then b;
        state b;
        accept at 7 [s] then c;
        state c;
    }
    state def Moving {
        attribute t0 : Integer := 3;
        entry; then a;
        state a;
        accept at t0 then b;
        state b;
    }
}`);
    // Busy from 10: the instant 5 has passed, so it never comes (its TimeSignal's condition, the clock's
    // time equal to 5, never becomes true): the wait of 3 s, n = 2 (it answered n = 1: due at once).
    assert.deepEqual(ends(await ask([clocked], question('outcomes', 'T::Past')), 'n'), [2]);
    assert.deepEqual(ends(await ask([clocked], question('outcomes', 'T::Future')), 'n'), [1]);
    // b entered at 8: the instant 7 never comes, b stays (it answered c).
    const stale = await ask([clocked], question('outcomes', 'T::Stale'));
    assert.deepEqual([stale.strength, ends(stale, 'state'), ends(stale, 'end')], ['proved', ['b'], ['deadlock']]);
    // b entered at 7 exactly: the instant is now, c.
    assert.deepEqual(ends(await ask([clocked], question('outcomes', 'T::Exact')), 'state'), ['c']);
    // a->b at 2, back at 3, a->b at 5, back at 6, a->b at 8: the instant 7 has passed, and the laps go on.
    const loop = await ask([clocked], question('outcomes', 'T::Loop'), [{ name: 'depth', limit: 12 }]);
    assert.deepEqual([loop.strength, ends(loop, 'state')], ['bounded', []]);
    assert.match(await refusal([clocked], question('outcomes', 'T::Moving')), /^clocked\.sysml:54:19: the instant of 'accept at' must be a constant time/);
  });

  it('terminate of an action whose body holds it ends every token inside it, and its successors follow; another occurrence is refused', async () => {
    const term = scalarPackage('terminate.sysml', 'K', `
    action def Early {
        attribute n : Integer := 0;
        attribute tailRan : Integer := 0;
        first start;
        then action work {
            first start;
            then fork;
              then a;
              then b;
            action a { assign n := n + 1; }
            then stop;
            action b { assign n := n + 10; }
            then j;
            join j;
            action stop terminate work;
        }
        then action tail { assign tailRan := 1; }
        then done;
    }
    action def Whole {
        attribute n : Integer := 0;
        first start;
        then action inner { terminate Whole; }
        then action never { assign n := 1; }
    }
    part p;
    action def Other {
        first start;
        then action t { terminate p; }
    }
}`);
    // a then stop: b may or may not have run (n = 1 or 11); work ends either way and tail runs.
    const early = await ask([term], question('outcomes', 'K::Early'));
    assert.deepEqual([[...new Set(ends(early, 'n'))].sort(), [...new Set(ends(early, "tailRan"))], [...new Set(ends(early, 'end'))]], [[1, 11], [1], ['done']]);
    const whole = await ask([term], question('outcomes', 'K::Whole'));
    assert.deepEqual([ends(whole, 'n'), ends(whole, 'end')], [[0], ['terminated']]);
    assert.match(await refusal([term], question('outcomes', 'K::Other')), /terminate of an occurrence other than an action whose body holds it/);
  });

  it('terminate without a target ends the action whose body holds it (its featuring occurrence), not the run', async () => {
    const term = scalarPackage('bare-terminate.sysml', 'K', `
    action def Monitored {
        attribute x : Integer := 0;
        first start;
        then work;
        action work {
            action critical { assign x := x + 1; }
            then terminate;
        }
        then finish;
        action finish { assign x := x + 10; }
    }
    part def Two {
        attribute a : Integer := 0;
        attribute b : Integer := 0;
        perform action first { first start; then action s { assign a := 1; } then terminate; }
        perform action second { first start; then accept after 1 [SI::s]; then assign b := 1; }
    }
    action def InIf {
        attribute x : Integer := 0;
        if x == 0 { terminate; }
    }
}`);
    // critical, then work ends; finish follows: x = 1 + 10, and the run ends done.
    const monitored = await ask([term], question('outcomes', 'K::Monitored'));
    assert.deepEqual([ends(monitored, 'x'), ends(monitored, 'end')], [[11], ['done']]);
    // A part's performed action ends alone: the other one still sets b.
    const two = await ask([term], question('outcomes', 'K::Two'));
    assert.deepEqual([ends(two, 'a'), ends(two, 'b'), ends(two, 'end')], [[1], [1], ['done']]);
    assert.match(await refusal([term], question('outcomes', 'K::InIf')), /^bare-terminate\.sysml:22:21: a terminate without a target inside the body 'if1\.then' of an if, while, loop or for ends that body's own performance/);
  });

  it('an action no succession leads to is performed too, beside an explicit first start', async () => {
    const d = text('dangling.sysml', `package D {
    action def Run {
        attribute a : ScalarValues::Integer := 0;
        attribute b : ScalarValues::Integer := 0;
        first start; then one; then done;
        action one { assign a := 1; }
        action two { assign b := 2; }
    }
}`);
    const o = await ask([d], question('outcomes', 'D::Run'));
    assert.deepEqual([ends(o, 'a'), ends(o, 'b')], [[1], [2]]);
  });

  it('an entry action typed by an action definition: its `n` is the definition’s own, never the state’s the run would read (once: S::n = 1)', async () => {
    const r = await refusal([bound], question('outcomes', 'B::S'));
    assert.match(r, /^bound\.sysml:12:\d+: 'n' names B::Bump::n \(bound\.sysml:12:33\) where it is written, but the run would (read|assign) B::S::n \(bound\.sysml:14:19\)/);
  });

  it('an assignment whose target names a feature of the body it is written in, never one around it the run would find (h = 0, not 7)', async () => {
    const d = scalarPackage('shadow.sysml', 'SH', `
    action def Outer {
        attribute h : Integer := 0;
        first start;
        then if true {
            attribute h : Integer := 1;
            first start;
            then assign h := 7;
        }
        then done;
    }
    action def Atomic {
        attribute h : Integer := 0;
        action inner { attribute h : Integer := 1; assign h := 7; }
    }
}`);
    // Outer::h stayed 0 (the body's own h became 7): the run wrote Outer::h, answering h = 7 at proved.
    assert.match(await refusal([d], question('outcomes', 'SH::Outer')), /^shadow\.sysml:9:25: 'h' names h \(shadow\.sysml:7:23\) where it is written, but the run would assign SH::Outer::h \(shadow\.sysml:4:19\)/);
    // A named action's own feature is its own: the run finds it (inner.h = 7, h = 0).
    const o = await ask([d], question('outcomes', 'SH::Atomic'));
    assert.deepEqual([ends(o, 'h'), ends(o, 'inner.h')], [[0], [7]]);
  });

  it('a name an action definition does not declare, read or assigned where a usage typed by it runs, is refused (x = 5 at proved before)', async () => {
    const d = scalarPackage('unresolved.sysml', 'UR', `
    action def Bump { first start; then assign x := 5; }
    action def Sub {
        attribute x : Integer := 0;
        action step1 : Bump;
    }
    action def Read { attribute y : Integer := 0; first start; then assign y := x + 1; }
    action def Sub2 {
        attribute x : Integer := 0;
        action step1 : Read;
    }
}`);
    assert.match(await refusal([d], question('outcomes', 'UR::Sub')), /^unresolved\.sysml:3:48: 'x' names nothing where it is written \(KerML 7\.2\.5 Namespaces: .*\), but the run would assign UR::Sub::x \(unresolved\.sysml:5:19\)/);
    assert.match(await refusal([d], question('outcomes', 'UR::Sub2')), /^unresolved\.sysml:8:81: 'x' names nothing where it is written .* but the run would read UR::Sub2::x/);
  });
});

describe('behaviour soundness: what is not modeled is refused with the construct and its place', () => {
  const model = scalarPackage('refused.sysml', 'R', `
    action def Bind {
        attribute a : Integer := 1;
        attribute b : Integer;
        bind b = a;
        action step { assign a := b; }
    }
    action def Calc {
        attribute x : Integer := 1;
        constraint positive { x > 0 }
        action step { assign x := 3; }
    }
    action def Nested {
        attribute x : Integer := 1;
        action inner { assert constraint { x > 0 } assign x := 2; }
    }
    action def Subset {
        attribute x : Integer := 1;
        attribute y :> x;
        action step { assign x := 2; }
    }
    action def Twice {
        attribute n : Integer := 0;
        first start; then decide; then a; then b;
        action a; then c;
        action b; then c;
        action c { assign n := n + 1; }
    }
    part def Wheel { attribute p : Integer := 1; }
    part car {
        part wheels : Wheel[4];
        perform action check;
    }
    part hitch {
        part a; part b;
        connection c connect a to b;
        perform action check;
    }
    action check;
    enum def Grade :> Real { enum A = 4.0; enum B = 3.0; }
    action def Graded {
        attribute g : Grade;
        action step;
    }
    part server {
        part clock : Wheel;
        ref part other = clock;
        perform action check;
    }
}`);

  const cases: [string, string][] = [
    ['R::Calc', "refused.sysml:11:9: constraint 'positive' is not modeled in an action flow"],
    ['R::Nested', 'refused.sysml:16:24: assert constraint is not modeled in an action body without a flow (its assignments and sends run as one step)'],
    ['R::Subset', "refused.sysml:20:24: subsetting (:>) of 'x', a feature of the model, on attribute 'y' is not modeled"],
    ['R::Twice', "refused.sysml:28:16: 'c' is the target of successions from 'a' and 'b': it is performed once, after all of them, which is modeled only where each of them is performed once (the flow has the decision node 'decide1', after which an action may not be performed, or be performed again; a merge continues after any one, a join after all)"],
    ['R::car', "refused.sysml:32:28: a multiplicity on part 'wheels': several (or no) instances are not modeled"],
    ['R::hitch', "refused.sysml:37:9: connection 'c' is not modeled in a part that performs or exhibits behaviours"],
    ['R::Graded', "refused.sysml:43:9: the enumeration 'Grade' gives its literals values, which the behaviour semantics does not model"],
    ['R::server', "refused.sysml:48:24: a value (=) on part 'other' is not modeled"],
  ];
  for (const [subject, expected] of cases) {
    it(`${subject}: ${expected.replace(/^refused\.sysml:\d+:\d+: /, '')}`, async () => {
      assert.equal(await refusal([model], question('outcomes', subject)), expected);
    });
  }

  it('a construct met in a definition of another file is refused with that file’s name and place', async () => {
    const lib = text('lib.sysml', `package L {
    action def Base {
        attribute k : ScalarValues::Integer := 0;
        constraint c { k > 0 }
        action s { assign k := 1; }
    }
}`);
    const user = text('user.sysml', `package U {
    private import L::*;
    action run : Base;
}`);
    assert.equal(await refusal([user, lib], question('outcomes', 'U::run')), "lib.sysml:4:9: constraint 'c' is not modeled in an action flow");
  });
});

describe('behaviour soundness: what a behaviour does outside the model is refused, not skipped', () => {
  const d = [scalarPackage('opaque.sysml', 'O', `
    part def Sensor { attribute ready : Boolean; }
    item def C { attribute x : Real; }
    // An opaque action: its body, in Alf, sets c.x; running it as an empty action would keep the old x.
    action def SetX {
        in c : C;
        in newX : Real;
        language "alf"
            /* c.x = newX; */
    }
    // Any number of sensors, each with its own 'ready': one instance would be one sensor.
    action def Check {
        in sensors : Sensor[*];
        attribute anyReady : Boolean := false;
        first start;
        then assign anyReady := sensors.ready;
        then done;
    }
}`)];

  it('an opaque action (a textual representation as its body) is refused at the representation', async () => {
    assert.equal(await refusal(d, question('outcomes', 'O::SetX', { free: ['schedule', 'inputs'] })), "opaque.sysml:9:9: an opaque behaviour: its body is a textual representation in 'alf', which is not modeled (what it does would be ignored)");
  });

  it('says when an awaited signal is one the model sends itself, so the environment never sends it', async () => {
    const machine = [text('internal.sysml', `package I {
    attribute def Sig;
    attribute def Go;
    part p;
    state def S {
        entry; then S1;
        state S1;
        transition first S1 accept Sig via p then S2;
        transition first S1 accept Go then S2;
        state S2 { entry send Sig() to p; }
    }
}`)];
    const a = await ask(machine, question('outcomes', 'I::S', { free: ['schedule', 'inputs'] }));
    // Go comes from the environment (S2 is reached, where the machine rests); Sig only from the model.
    assert.deepEqual(a.assumptions, ['Sig is sent by the model itself, so it arrives only when the model sends it, never as an event of the environment']);
    const closed = await ask(machine, question('outcomes', 'I::S'));
    assert.equal(closed.assumptions, undefined);
  });

  it('a parameter of several parts is no single instance: reading it is refused', async () => {
    assert.match(await refusal(d, question('outcomes', 'O::Check', { free: ['schedule', 'inputs'] })), /'sensors' is a parameter of several \(or no\) parts \(multiplicity \[\*\]\): their values are not modeled/);
  });
});

describe('behaviour soundness: names in a flow', () => {
  it('the payload of `accept x : T;` does not name the accept: `then x` beside it is refused; `action x accept …` is answered', async () => {
    const payload = text('payload.sysml', `package P {
    attribute def Go;
    action def A {
        first start;
        then accept waitGo : Go;
        then waitGo;
        then done;
    }
}`);
    assert.equal(await refusal([payload], question('outcomes', 'P::A')), "payload.sysml:6:14: no action named 'waitGo' in this flow");
    const named = text('named.sysml', `package P {
    attribute def Go;
    action def A {
        attribute n : Integer := 0;
        first start;
        then action waitGo accept go : Go;
        then assign n := n + 1;
        then done;
    }
}`);
    const o = await ask([named], question('outcomes', 'P::A'));
    assert.equal(o.strength, 'proved');
  });
});

describe('behaviour soundness: a redefining usage inherits what the redefined one does', () => {
  // An action def whose step1 runs `s1` (declared as given), then s2, which assigns y := x.
  const twoSteps = (name: string, s1: string) => `action def ${name} {
        attribute x : Integer := 0;
        attribute y : Integer := 0;
        first start;
        then step1;
        action step1 {
            first start;
            then s1;
            ${s1}
            then s2;
            action s2 { assign y := x; }
        }
    }`;
  const d = scalarPackage('redefinition.sysml', 'R', `
    state def Base {
        attribute x : Integer := 0;
        entry; then a;
        state a;
        transition first a then b;
        state b { entry action { assign x := 1; } }
    }
    state def D2 :> Base {
        state :>> b;
    }
    state def D3 :> Base {
        state :>> b { entry action { assign x := 2; } }
    }
    ${twoSteps('ABase', 'action s1 { assign x := 5; }')}
    action def ADerived :> ABase {
        action :>> step1;
    }
    ${twoSteps('ATemplate', 'action s1;')}
    action def AReplaced :> ATemplate {
        action :>> step1 {
            action :>> s1 { assign x := 7; }
        }
    }
    // An exhibited state redefined without a body of its own (as the vehicle model writes it).
    part def Holder {
        attribute x : Integer := 0;
        exhibit state machine { entry; then on; state on { entry action { assign x := 1; } } }
    }
    part h : Holder { exhibit state machine redefines machine; }
    // Performing another action while redefining job: the performance does what both do.
    action extra;
    part def Worker {
        attribute n : Integer := 0;
        perform action job { assign n := 1; }
    }
    part w : Worker { perform extra redefines job; }
    // A redefined attribute between two steps: \`then b;\` still follows a.
    action def Between {
        attribute x : Integer := 0;
        first start;
        then a;
        action a { assign x := 1; }
        attribute y : Integer := 0;
        then b;
        action b { assign y := y + x; }
    }
    action def BetweenD :> Between {
        attribute :>> y := 3;
    }
    // Own successions that repeat inherited ones (typed, and redefined): a1 (redefined with :>>) is one step, run once.
    action def Accel {
        attribute speed : Integer := 0;
        first start;
        then a1;
        action a1 { assign speed := speed + 10; }
    }
    action def Typed {
        attribute speed : Integer := 0;
        action accel : Accel {
            first start;
            then a1;
            action :>> a1;
        }
    }
    part def Veh {
        attribute speed : Integer := 0;
        perform action accel { first start; then a1; action a1 { assign speed := speed + 10; } }
    }
    part car : Veh {
        perform action :>> accel { first start; then a1; action :>> a1; }
    }
    // s1 redefined with a body of its own inherits the redefined s1's assignment too: both write x.
    action def ABoth :> ABase {
        action :>> step1 {
            action :>> s1 { assign x := 7; }
        }
    }
}`);

  it('a redefinition without a body performs the redefined usage\'s behaviour', async () => {
    // ADerived::step1 is ABase::step1: x = 5, then y = x.
    const a = await ask([d], question('outcomes', 'R::ADerived'));
    assert.deepEqual([ends(a, 'x'), ends(a, 'y')], [[5], [5]]);
    // D2::b is Base::b: entering it sets x.
    const s = await ask([d], question('outcomes', 'R::D2'));
    assert.deepEqual([ends(s, 'state'), ends(s, 'x')], [['b'], [1]]);
    // h's machine is Holder's: it enters on.
    const h = await ask([d], question('outcomes', 'R::h'));
    assert.deepEqual([ends(h, 'state'), ends(h, 'x')], [['on'], [1]]);
    assert.deepEqual(ends(await ask([d], question('outcomes', 'R::w')), 'n'), [1]);
  });

  it('a redefinition with a body keeps the members it does not redefine (the successions), and its own replace the redefined ones', async () => {
    // s1 is replaced (x = 7); the inherited successions still order s1 before s2: y = 7.
    const a = await ask([d], question('outcomes', 'R::AReplaced'));
    assert.deepEqual([ends(a, 'x'), ends(a, 'y')], [[7], [7]]);
    const between = await ask([d], question('outcomes', 'R::BetweenD'));
    assert.deepEqual([between.reason?.startsWith('1 outcome'), ends(between, 'y')], [true, [4]]);
    // The redefining s1 also inherits ABase's s1's assignment: two unordered writes of x, refused naming both.
    assert.match(await refusal([d], question('outcomes', 'R::ABoth')), /^redefinition\.sysml:\d+:\d+: 'assign x := …' and 'assign x := …' \(redefinition\.sysml:24:25\) are steps of one body with no succession between them, .* both write 'x': not modeled; one is inherited from 's1'/);
  });

  it('an own succession that repeats an inherited one orders the same steps: the step runs once', async () => {
    for (const subject of ['R::Typed', 'R::car']) {
      const o = await ask([d], question('outcomes', subject));
      // Typed's accel has Accel's own speed (accel.speed).
      // a1 redefined without a body does what Accel's (or Veh's) a1 does, once: 10, not 20.
      assert.deepEqual([o.reason?.startsWith('1 outcome'), ends(o, subject === 'R::car' ? 'speed' : 'accel.speed')], [true, [10]], subject);
    }
  });

  it('a state with its own entry action and an inherited one is refused naming both', async () => {
    assert.match(await refusal([d], question('outcomes', 'R::D3')), /^redefinition\.sysml:8:19: 'b' has two entry actions, this one and the one at redefinition\.sysml:14:23 \(one inherited from a state or definition it specializes or redefines\): whether one replaces the other or both are performed is not modeled/);
  });
});

describe('behaviour soundness: what SysML v2 leaves unordered is never run in one order only', () => {
  const d = scalarPackage('unordered.sysml', 'U', `
    item def A;
    item def B;
    action def Both {
        attribute x : Integer := 0;
        assign x := 1;
        assign x := 2;
    }
    action def Independent {
        attribute x : Integer := 0;
        attribute y : Integer := 0;
        assign x := 1;
        assign y := 2;
    }
    action def ThroughBinding {
        attribute x : Integer := 0;
        attribute y = x * 2;
        attribute z : Integer := 0;
        action a { assign z := y; assign x := 1; }
    }
    action def Ordered {
        attribute x : Integer := 0;
        first start;
        then assign x := 1;
        then assign x := 2;
    }
    part def Sends {
        part p;
        perform action s { send A() to p; send B() to p; }
    }
    state def Effects {
        attribute a : Integer := 0;
        attribute b : Integer := 0;
        entry; then s;
        state s { entry action { assign a := 1; assign b := a; } }
    }
    state def Entries {
        attribute log : Integer := 0;
        entry; then on;
        state on parallel {
            state r1 { entry action { assign log := log * 10 + 1; } }
            state r2 { entry action { assign log := log * 10 + 2; } }
        }
    }
    state def Exits {
        attribute log : Integer := 0;
        entry; then on;
        state on parallel {
            state r1 { entry; then a; state a { exit action { assign log := log * 10 + 1; } } }
            state r2 { entry; then b; state b { exit action { assign log := log * 10 + 2; } } }
        }
        transition first on accept A then off;
        state off;
    }
    state def LaterMove {
        attribute log : Integer := 0;
        entry; then on;
        state on parallel {
            state r1 { entry; then a; state a; transition first a do assign log := 5 then b; state b; }
            state r2 { entry action { assign log := log + 1; } }
        }
    }
    state def Apart {
        attribute l : Integer := 0;
        attribute r : Integer := 0;
        entry; then on;
        state on parallel {
            state r1 { entry action { assign l := 1; } }
            state r2 { entry action { assign r := 2; } }
        }
    }
    part def Machine {
        attribute x : Integer := 0;
        attribute seen : Integer := 0;
        exhibit state m { entry; then s; state s { entry action { assign x := 1; } } }
        perform action reader { first start; then assign seen := x; }
    }
}`);

  it('two statements of one body without a succession that touch one feature are refused naming both; independent or ordered ones are answered', async () => {
    assert.match(await refusal([d], question('outcomes', 'U::Both')), /^unordered\.sysml:7:9: 'assign x := …' and 'assign x := …' \(unordered\.sysml:8:9\) are steps of one body with no succession between them, which SysML v2 performs in either order \(SysML 7\.16\.3: successions order the steps of an action\), and both write 'x'/);
    assert.match(await refusal([d], question('outcomes', 'U::ThroughBinding')), /'assign z := …' and 'assign x := …' \(unordered\.sysml:20:35\) .* 'x' is written by one and read by the other/);
    assert.match(await refusal([d], question('outcomes', 'U::Sends')), /'send A to p' and 'send B to p' .* both send to 'p'/);
    assert.match(await refusal([d], question('outcomes', 'U::Effects')), /^unordered\.sysml:36:34: 'assign a := …' and 'assign b := …'/);
    assert.deepEqual([ends(await ask([d], question('outcomes', 'U::Independent')), 'x'), ends(await ask([d], question('outcomes', 'U::Ordered')), 'x')], [[1], [2]]);
  });

  it("the entry or exit actions of a parallel state's regions that conflict are refused; independent ones are answered", async () => {
    assert.match(await refusal([d], question('outcomes', 'U::Entries')), /^unordered\.sysml:\d+:\d+: the regions 'on\.r1' and 'on\.r2' of the parallel state 'on' are performed concurrently, yet the entry \(or do\) action 'assign log := …' of 'on\.r1' runs in the one move that enters them \(in declaration order\), before any move of 'on\.r2', and it conflicts with 'assign log := …' at unordered\.sysml:\d+:\d+ \(both write 'log'\)/);
    // r1's transition may fire before r2's entry has run (log 5 then 6), which the one entering move never shows.
    assert.match(await refusal([d], question('outcomes', 'U::LaterMove')), /the entry \(or do\) action 'assign log := …' of 'on\.r2' runs in the one move that enters them .* conflicts with 'assign log := …' at unordered\.sysml:\d+:\d+ \(both write 'log'\)/);
    assert.match(await refusal([d], question('outcomes', 'U::Exits')), /the regions 'on\.r1' and 'on\.r2' of the parallel state 'on' are performed concurrently, and their exit actions conflict/);
    const apart = await ask([d], question('outcomes', 'U::Apart'));
    assert.deepEqual([ends(apart, 'l'), ends(apart, 'r')], [[1], [2]]);
  });

  it("a state machine's initial entry that another behaviour of the part reads is refused (it would always run first)", async () => {
    assert.match(await refusal([d], question('outcomes', 'U::Machine')), /'m' and 'reader' are behaviours of one part, performed concurrently; the initial entry action 'assign x := …' of 'm' runs before any step of 'reader' here, yet 'x' is written by one and read by the other/);
  });
});

describe('behaviour soundness: signals and their receivers', () => {
  it('a nested subject receives a signal sent to it by a chain through its owner (`to sys.a`), and is reported once (got = 1, no stale a.got = 0)', async () => {
    const m = text('owner-chain.sysml', `package OC {
    private import ScalarValues::*;
    attribute def Go;
    part sys {
        part a {
            attribute got : Integer := 0;
            perform action w { first start; then send Go() to sys.a; }
            exhibit state m {
                entry; then idle;
                state idle;
                transition first idle accept Go do action { assign got := 1; } then fin;
                state fin;
            }
        }
    }
}`);
    const o = await ask([m], question('outcomes', 'OC::sys::a'));
    assert.deepEqual([o.strength, ends(o, 'got'), ends(o, 'state')], ['proved', [1], ['fin']]);
    assert.ok(!o.values!.some((v) => v.name.startsWith('a.')), JSON.stringify(o.values));
  });

  it('a receiver chain `b.p` names the b where the send is written (the part\'s own b, not the subject\'s): a.b.hit = 1, b.hit = 0', async () => {
    const m = text('receiver-chain.sysml', `package RC {
    private import ScalarValues::*;
    attribute def Go;
    port def GP;
    part def Box {
        port p : GP;
        attribute hit : Integer := 0;
        exhibit state m {
            entry; then w;
            state w;
            transition first w accept Go via p do action { assign hit := 1; } then w;
        }
    }
    part sys {
        part a {
            part b : Box;
            perform action x { first start; then send Go() to b.p; }
        }
        part b : Box;
    }
    part def Client { perform action talk { first start; then send Go() to srv.p; } }
    part sys2 {
        part cli : Client;
        part srv : Box;
    }
}`);
    const o = await ask([m], question('outcomes', 'RC::sys'));
    assert.deepEqual([o.strength, ends(o, 'a.b.hit'), ends(o, 'b.hit')], ['proved', [1], [0]]);
    // In Client, srv names nothing (sys2's srv is not in its scope): refused, never delivered to sys2.srv.
    assert.match(await refusal([m], question('outcomes', 'RC::sys2')), /^receiver-chain\.sysml:21:76: send … to \/ accept … via 'srv\.p': 'srv' names nothing where it is written, but the run would deliver to RC::sys2::srv \(receiver-chain\.sysml:24:14\)/);
  });

  const d = text('signals.sysml', `package SG {
    private import ScalarValues::*;
    attribute def Base;
    attribute def Sub :> Base;
    part def ToThis {
        attribute got : Integer := 0;
        perform action sender { first start; then send new Base() to this; then send new Base() to this; then done; }
        perform action receiver { first start; then accept b : Base; then accept c : Base; then assign got := 2; then done; }
    }
    part toThis : ToThis;
    part def ToInner {
        part inner { perform action receiver { first start; then accept g : Base; then done; } }
        perform action sender { first start; then send new Base() to this.inner; then done; }
    }
    part toInner : ToInner;
    part def ToSelf {
        perform action sender { first start; then send new Base() to self; then done; }
        perform action receiver { first start; then accept g : Base; then done; }
    }
    part toSelf : ToSelf;
    part def ToNobody {
        perform action sender { first start; then send new Base() to nobody; then done; }
        perform action receiver { first start; then accept g : Base; then done; }
    }
    part toNobody : ToNobody;
    part def SubToBase {
        attribute got : Integer := 0;
        perform action sender { first start; then send new Sub() to subToBase; then done; }
        perform action receiver { first start; then accept b : Base; then assign got := 1; then done; }
    }
    part subToBase : SubToBase;
    part def BaseToSub {
        attribute got : Integer := 0;
        perform action sender { first start; then send new Base() to baseToSub; then done; }
        perform action receiver { first start; then accept b : Sub; then assign got := 1; then done; }
    }
    part baseToSub : BaseToSub;
    part def ByFeature {
        attribute s : Base;
        perform action sender { first start; then send s to byFeature; then done; }
        perform action receiver { first start; then accept b : Base; then done; }
    }
    part byFeature : ByFeature;
    state def Nested {
        entry; then outer;
        state outer { entry; then inner; state inner; transition first inner accept Sub then inner; }
        transition first outer accept Base then outer;
        entry action { send new Sub() to this; }
    }
    package One { attribute def Go; }
    package Two { attribute def Go; }
    part def SameName {
        perform action sender { first start; then send new One::Go() to sameName; then done; }
        perform action receiver { first start; then accept g : Two::Go; then done; }
    }
    part sameName : SameName;
}`);

  it("'this' is the performing part: a signal sent to this (or to this.inner) is accepted there", async () => {
    // Transfers.kerml: an AcceptPerformance's receiver defaults to `this`; the send's `to this` names it.
    const a = await ask([d], question('outcomes', 'SG::toThis'));
    assert.deepEqual([a.strength, ends(a, 'end'), ends(a, 'got')], ['proved', ['done'], [2]]);
    const inner = await ask([d], question('outcomes', 'SG::toInner'));
    assert.deepEqual(ends(inner, 'end'), ['done']);
  });

  it("a receiver named 'self' or a name that resolves to nothing is refused at its place (the signal was lost: deadlock, proved)", async () => {
    assert.match(await refusal([d], question('outcomes', 'SG::toSelf')), /^signals\.sysml:17:70: .*'self' is the action or state performance/);
    assert.match(await refusal([d], question('outcomes', 'SG::toNobody')), /^signals\.sysml:22:70: .*'nobody': the name resolves to nothing the model declares/);
  });

  it('a signal is accepted by an accept of its type or a supertype, never of a subtype', async () => {
    const up = await ask([d], question('outcomes', 'SG::subToBase'));
    assert.deepEqual([up.strength, ends(up, 'end'), ends(up, 'got')], ['proved', ['done'], [1]]);
    const down = await ask([d], question('outcomes', 'SG::baseToSub'));
    assert.deepEqual([ends(down, 'end'), ends(down, 'got')], [['deadlock'], [0]]);
    // `send s` with `s : Base` sends a Base (it was the signal 's', accepted by nothing).
    const feature = await ask([d], question('outcomes', 'SG::byFeature'));
    assert.deepEqual(ends(feature, 'end'), ['done']);
  });

  it("a Sub that enables a nested state's transition on Sub and its owner's on Base is refused as the same event would be", async () => {
    assert.match(await refusal([d], question('outcomes', 'SG::Nested')), /are both enabled by the signal Sub/);
  });

  it('an accepted payload sent on (`accept s : Base; then send s to p`) is a Base; with a subtype sent too it is refused', async () => {
    const f = [text('forward.sysml', `package FW {
    attribute def Base;
    attribute def Sub :> Base;
    part def Fwd {
        part relay { perform action r { first start; then accept s : Base; then send s to fwd; then done; } }
        perform action src { first start; then send new Base() to relay; then done; }
        perform action sink { first start; then accept t : Base; then done; }
    }
    part fwd : Fwd;
    part def FwdSub {
        part relay { perform action r { first start; then accept s : Base; then send s to fwdSub; then done; } }
        perform action src { first start; then send new Sub() to relay; then done; }
        perform action sink { first start; then accept t : Sub; then done; }
    }
    part fwdSub : FwdSub;
}`)];
    // It was a signal named 's', accepted by nothing: a deadlock, proved.
    const fwd = await ask(f, question('outcomes', 'FW::fwd'));
    assert.deepEqual([fwd.strength, ends(fwd, 'end')], ['proved', ['done']]);
    assert.match(await refusal(f, question('outcomes', 'FW::fwdSub')), /^forward\.sysml:11:86: send of an accepted Base: the model also sends Sub, a subtype of Base/);
  });

  it("a transition's guard or effect that names its accepted payload is refused where a run reads it (it read a feature of that name)", async () => {
    const g = [text('payload.sysml', `package PL {
    private import ScalarValues::*;
    attribute def Sig;
    part def P {
        attribute n : Integer := 1;
        attribute got : Integer := 0;
        exhibit state m {
            entry; then A;
            state A;
            transition first A accept n : Sig if n == 1 do assign got := 1 then B;
            state B;
        }
        perform action drive { first start; then send new Sig() to p; then done; }
    }
    part p : P;
    part def Q {
        attribute n : Integer := 1;
        exhibit state m {
            entry; then A;
            state A;
            transition first A accept n : Sig if n == 1 then B;
            state B;
        }
    }
    part q : Q;
}`)];
    // In the guard, n is the accepted Sig (the transition's payload parameter), not the part's Integer n:
    // it answered B with got = 1, proved.
    assert.match(await refusal(g, question('outcomes', 'PL::p')), /^payload\.sysml:10:50: 'n' here is the payload the transition's trigger accepts/);
    // Never taken (no Sig is sent): answered.
    const q = await ask(g, question('outcomes', 'PL::q'));
    assert.deepEqual(ends(q, 'state'), ['A']);
  });

  it('two signal types of one name are refused, never taken for each other', async () => {
    assert.match(await refusal([d], question('outcomes', 'SG::sameName')), /^signals\.sysml:54:60: the signal types SG::Two::Go and SG::One::Go \(signals\.sysml:53:56\) share the name 'Go'/);
  });
});

describe('behaviour soundness: a join waits for every incoming succession', () => {
  it('two tokens along one succession (after a merge) do not stand for the missing one: the join never fires', async () => {
    const d = [text('join.sysml', `package JN {
    private import ScalarValues::*;
    attribute def Never;
    action def J {
        attribute x : Integer := 0;
        first start;
        then fork f;
            then a;
            then b;
            then c;
        action a { assign x := x + 1; }
        action b { assign x := x + 10; }
        first a then m;
        first b then m;
        merge m;
        then j;
        action c accept s : Never;
        first c then j;
        join j;
        then action last { assign x := 100; }
    }
    action def Both {
        attribute x : Integer := 0;
        first start;
        then fork f;
            then a;
            then b;
        action a { assign x := x + 1; }
        action b { assign x := x + 10; }
        first a then j;
        first b then j;
        join j;
        then action last { assign x := x * 2; }
    }
}`)];
    // The join fired on the two tokens from m (x = 100, done) while c never happened.
    const j = await ask(d, question('outcomes', 'JN::J'));
    assert.deepEqual([j.strength, ends(j, 'end'), ends(j, 'x')], ['proved', ['deadlock'], [11]]);
    assert.match(j.reason!, /deadlock \(t1@j, t2@j, t3@c\)/);
    const both = await ask(d, question('outcomes', 'JN::Both'));
    assert.deepEqual([ends(both, 'end'), ends(both, 'x')], [['done'], [22]]);
  });
});

describe('behaviour soundness: transitions redefined in a specialization', () => {
  const d = [text('redefined-transition.sysml', `package RT {
    private import ScalarValues::*;
    state def SM {
        attribute k : Integer := 0;
        entry; then S1;
        state S1 { entry action { assign k := k + 1; } }
        transition t1 first S1 then S2;
        state S2;
    }
    state def Redefined :> SM {
        transition :>> t1 first S1 then S3;
        state S3;
    }
    state def SameName :> SM {
        transition t1 first S1 then S3;
        state S3;
    }
}`)];

  it('`transition :>> t1` replaces the inherited t1: one outcome, in S3 (both were taken: two outcomes)', async () => {
    const o = await ask(d, question('outcomes', 'RT::Redefined'));
    assert.deepEqual([o.strength, ends(o, 'state')], ['proved', ['S3']]);
  });

  it('a transition declared under an inherited one\'s name without :>> is another feature: refused naming both', async () => {
    assert.match(await refusal(d, question('outcomes', 'RT::SameName')), /^redefined-transition\.sysml:15:20: 't1' in SameName has the name of the inherited SM::t1 \(redefined-transition\.sysml:7:20\) but does not redefine it.*write `transition :>> t1`/);
  });
});

describe('behaviour soundness: time', () => {
  it('an `accept after d` whose delay the run changes while it waits is refused (the wait followed the new value)', async () => {
    const d = [text('after-delay.sysml', `package AD {
    private import ScalarValues::*;
    action def Changed {
        attribute d : Integer := 5;
        attribute x : Integer := 0;
        attribute y : Integer := -1;
        first start;
        then fork f; then w; then c;
        action w { first start; then accept after d [SI::s]; then assign x := 1; }
        action c { first start; then accept after 1 [SI::s]; then assign d := 100; then accept after 9 [SI::s]; then assign y := x; }
    }
    action def Constant {
        attribute d : Integer := 5;
        attribute x : Integer := 0;
        attribute y : Integer := -1;
        first start;
        then fork f; then w; then c;
        action w { first start; then accept after d [SI::s]; then assign x := 1; }
        action c { first start; then accept after 10 [SI::s]; then assign y := x; }
    }
}`)];
    // The wait begun at 0 for 5 s ends at 5 (Triggers.kerml TriggerAfter), so y = 1; the run re-read d
    // and waited until 100: y = 0, proved.
    assert.match(await refusal(d, question('outcomes', 'AD::Changed')), /^after-delay\.sysml:9:38: accept after …: the delay reads 'd', which the run writes/);
    const c = await ask(d, question('outcomes', 'AD::Constant'));
    assert.deepEqual([c.strength, ends(c, 'y')], ['proved', [1]]);
  });
});

describe('behaviour soundness: change triggers', () => {
  const d = [text('when.sysml', `package WH {
    private import ScalarValues::*;
    action def Blip {
        attribute x : Integer := 0;
        attribute y : Integer := 0;
        first start;
        then fork f; then a; then b;
        action a { first start; then accept when x > 0; then assign y := 1; }
        action b { first start; then assign x := 1; then assign x := 0; }
    }
    part def P {
        attribute x : Integer := 0;
        exhibit state m {
            entry; then A;
            state A;
            transition first A accept when x > 0 then B;
            state B;
        }
        perform action b { first start; then assign x := 1; then assign x := 0; then done; }
    }
    part p : P;
    action def Rises {
        attribute x : Integer := 0;
        attribute y : Integer := 0;
        first start;
        then fork f; then a; then b;
        action a { first start; then accept when x > 0; then assign y := 1; }
        action b { first start; then assign x := 1; then assign x := 2; }
    }
}`)];

  it('a condition that turns false again while its accept waits is refused: the change signal was sent and stays pending (a deadlock was answered, proved)', async () => {
    // Observation.kerml ObserveChange: the ChangeSignal is sent when x > 0 becomes true; the accept takes
    // it later, so no run deadlocks at the accept (outcomes said done or deadlock).
    assert.match(await refusal(d, question('outcomes', 'WH::Blip')), /^when\.sysml:8:38: accept when … 'a\.accept1' waits on a condition that held \(when the move began, or between two of its effects\) and that the move t\d+@b\.assign3 leaves false/);
    assert.match(await refusal(d, question('outcomes', 'WH::p')), /^when\.sysml:16:13: the transition 'm\.A->B' \(accept when …\) waits on a condition that held/);
    // True only between the exit action and the entry action of one transition: the signal was sent too.
    const inside = [text('when-inside.sysml', `package WI {
    private import ScalarValues::*;
    part def P {
        attribute ready : Boolean := false;
        exhibit state m {
            entry; then A;
            state A { exit action { assign ready := true; } }
            transition first A accept after 1 [SI::s] then B;
            state B { entry action { assign ready := false; } }
        }
        perform action w { first start; then accept when ready; then done; }
    }
    part p : P;
}`)];
    assert.match(await refusal(inside, question('outcomes', 'WI::p')), /^when-inside\.sysml:7:37: the move t1@m\.A->B writes 'ready' twice, .* and 'w\.accept1', which may run meanwhile, reads it/);
    const rises = await ask(d, question('outcomes', 'WH::Rises'));
    assert.deepEqual([rises.strength, ends(rises, 'end'), ends(rises, 'y')], ['proved', ['done'], [1]]);
  });
});

describe('behaviour soundness: succession end multiplicities', () => {
  it('`succession first [1] a then [0..1] b` is refused at the multiplicity (it was ignored: b always after a)', async () => {
    const d = [text('succession-ends.sysml', `package SE {
    private import ScalarValues::*;
    action def Loose {
        attribute x : Integer := 0;
        action a { assign x := x + 1; }
        action b { assign x := x * 10; }
        succession first [1] a then [0..1] b;
    }
    action def One {
        attribute x : Integer := 0;
        action a { assign x := x + 1; }
        action b { assign x := x * 10; }
        succession first [1] a then [1] b;
    }
}`)];
    assert.match(await refusal(d, question('outcomes', 'SE::Loose')), /^succession-ends\.sysml:7:37: a multiplicity \[0\.\.1\] on an end of a succession is not modeled/);
    const one = await ask(d, question('outcomes', 'SE::One'));
    assert.deepEqual(ends(one, 'x'), [10]);
  });
});

describe('behaviour soundness: referential actions', () => {
  it('`ref action a { … }` in a body is no step of it: refused (it was performed, x = 1)', async () => {
    const d = [text('ref-action.sysml', `package RF {
    private import ScalarValues::*;
    action def R {
        attribute x : Integer := 0;
        ref action a { assign x := x + 1; }
        first start; then done;
    }
}`)];
    assert.match(await refusal(d, question('outcomes', 'RF::R')), /^ref-action\.sysml:5:9: a referential action \(ref action 'a'\) is not a step of the body that declares it/);
  });
});

describe('behaviour soundness: performing a behaviour performed already', () => {
  it('`perform drive;` in a nested part (or again in the same part) references the performance of drive, never a second one (k = 1, not 2)', async () => {
    const d = [text('perform-again.sysml', `package PA {
    private import ScalarValues::*;
    part sys {
        attribute k : Integer := 0;
        perform action drive { first start; then assign k := k + 1; }
        part engine { perform drive; }
    }
    part twice {
        attribute k : Integer := 0;
        perform action p1 { first start; then assign k := k + 1; }
        perform p1;
    }
    part added {
        attribute k : Integer := 0;
        perform action drive { first start; then assign k := k + 1; }
        part engine { perform drive { attribute j : Integer := 0; } }
    }
    part plainState {
        attribute k : Integer := 0;
        state s { entry; then A; state A { entry action { assign k := k + 1; } } }
        part engine { exhibit s; }
    }
    part exhibited {
        attribute k : Integer := 0;
        exhibit state s { entry; then A; state A { entry action { assign k := k + 1; } } }
        part engine { exhibit s; }
    }
}`)];
    for (const subject of ['PA::sys', 'PA::twice', 'PA::plainState', 'PA::exhibited']) {
      const o = await ask(d, question('outcomes', subject));
      assert.deepEqual([o.strength, ends(o, 'k')], ['proved', [1]], subject);
      // One machine (one performance): its configuration is state@1, no engine.s.state@1 beside it.
      assert.ok(!o.values!.some((v) => v.name.startsWith('engine.')), subject);
    }
    assert.match(await refusal(d, question('outcomes', 'PA::added')), /^perform-again\.sysml:16:31: 'drive' is performed already \(perform-again\.sysml:15:9\): this perform references that performance, and adding to it here is not modeled/);
  });
});

describe('behaviour soundness: performing a step of the flow', () => {
  it('`perform a;` beside the step `action a` is that step, never a second performance: refused (k = 2 at proved before)', async () => {
    const d = [text('perform-step.sysml', `package PS {
    private import ScalarValues::*;
    action def F {
        attribute k : Integer := 0;
        action a { assign k := k + 1; }
        perform a;
    }
    action def Nested {
        attribute k : Integer := 0;
        action a { assign k := k + 1; }
        action b { first start; then perform a; }
    }
}`)];
    assert.match(await refusal(d, question('outcomes', 'PS::F')), /^perform-step\.sysml:6:17: 'a' is a step of this behaviour, performed already where it is declared \(perform-step\.sysml:5:16\)/);
    assert.match(await refusal(d, question('outcomes', 'PS::Nested')), /^perform-step\.sysml:11:46: 'a' is a step of this behaviour/);
  });
});

describe('behaviour soundness: do actions', () => {
  const d = [text('do-actions.sysml', `package DA {
    private import ScalarValues::*;
    state def Guarded {
        attribute x : Integer := 0;
        entry; then A;
        state A { do action { assign x := 1; } }
        transition first A if x == 0 then B;
        transition first A if x == 1 then C;
        state B; state C;
    }
    state def Inner {
        attribute x : Integer := 0;
        attribute y : Integer := -1;
        entry; then P;
        state P {
            do action { assign x := 1; }
            entry; then S;
            state S { entry action { assign y := x; } }
        }
    }
    state def Change {
        attribute ready : Boolean := false;
        entry; then waiting;
        state waiting { do action { assign ready := true; } }
        transition first waiting accept when ready then fin;
        state fin;
    }
}`)];

  it("a do action that writes what its state's transition guards or its substates read is refused (it ran first: one outcome, proved)", async () => {
    // StatePerformance: a transition follows the state's substates, not its do action, so the guard may
    // read x before or after the do action writes it (B or C); the run answered C only.
    assert.match(await refusal(d, question('outcomes', 'DA::Guarded')), /^do-actions\.sysml:6:31: the do action 'assign x := …' of the state 'A' runs concurrently with its substates and with the guards of its transitions/);
    // do.startShot then nonDoMiddle.startShot: S's entry may read x before the do action writes it (y = 0 or 1).
    assert.match(await refusal(d, question('outcomes', 'DA::Inner')), /^do-actions\.sysml:16:25: the do action 'assign x := …' of the state 'P' .* conflicts with 'assign y := …' at do-actions\.sysml:18:38/);
    // A change trigger's signal is sent whichever runs first: answered.
    const c = await ask(d, question('outcomes', 'DA::Change'));
    assert.deepEqual([c.strength, ends(c, 'state')], ['proved', ['fin']]);
  });
});

describe('behaviour soundness: bound features in the initial state', () => {
  it("a feature bound to one the machine's initial entry action writes reads the written value (it kept the value before it)", async () => {
    const d = [text('bound-initial.sysml', `package BI {
    private import ScalarValues::*;
    state def M {
        attribute x : Integer := 0;
        attribute y : Integer = x + 1;
        entry action { assign x := 5; }
        entry; then A;
        state A;
    }
}`)];
    const o = await ask(d, question('outcomes', 'BI::M'));
    assert.deepEqual([o.strength, ends(o, 'x'), ends(o, 'y')], ['proved', [5], [6]]);
  });
});

describe('behaviour soundness: holds inside a move', () => {
  it('a condition that fails between the exit and the entry action of one transition is refused (it answered holds, proved)', async () => {
    const d = [text('inside-move.sysml', `package IM {
    private import ScalarValues::*;
    state def M {
        attribute x : Integer := 0;
        entry; then A;
        state A { exit action { assign x := -1; } }
        transition first A then B;
        state B { entry action { assign x := 5; } }
    }
}`)];
    assert.match(await refusal(d, question('holds', 'IM::M', { condition: { name: 'c', text: 'x >= 0' } })), /^inside-move\.sysml:6:33: a checked condition fails inside the move t1@A->B, right after this assignment, and holds again at its end/);
    // A condition that fails at the end of the move is a violation, witnessed as before.
    const v = await ask(d, question('holds', 'IM::M', { condition: { name: 'c', text: 'x < 5' } }));
    assert.deepEqual([v.claim, v.strength, v.witness?.at], ['violated', 'proved', 1]);
    // outcomes is not concerned: it reports the ends of runs.
    assert.deepEqual(ends(await ask(d, question('outcomes', 'IM::M')), 'x'), [5]);
  });
});

describe('behaviour soundness: values between the effects of one move', () => {
  it('a move that writes a feature twice (exit then entry action), or two features, beside a token that reads them is refused (outcomes missed what it reads in between)', async () => {
    const d = [text('hidden-values.sysml', `package HV {
    private import ScalarValues::*;
    part def Twice {
        attribute x : Integer := 0;
        attribute y : Integer := -1;
        exhibit state m {
            entry; then A;
            state A { exit action { assign x := 1; } }
            transition first A then B;
            state B { entry action { assign x := 2; } }
        }
        perform action r { first start; then assign y := x; then done; }
    }
    part twice : Twice;
    action def Pair {
        attribute a : Integer := 0;
        attribute b : Integer := 0;
        attribute c : Integer := -1;
        first start;
        then fork f; then w; then r;
        action w { assign a := 1; assign b := 1; }
        action r { assign c := a + b; }
    }
    action def Apart {
        attribute a : Integer := 0;
        attribute b : Integer := 0;
        attribute c : Integer := -1;
        first start;
        then fork f; then w; then r;
        action w { assign a := 1; assign b := 1; }
        action r { assign c := a; }
    }
}`)];
    // SysML v2 performs the exit action, then the entry action: r may read x = 1 in between (y = 1);
    // outcomes answered y = 0 or 2, proved.
    assert.match(await refusal(d, question('outcomes', 'HV::twice')), /^hidden-values\.sysml:8:37: the move t1@m\.A->B writes 'x' twice, .* and 'r\.assign1', which may run meanwhile, reads it/);
    // The body's two assignments are two steps: c = 1 between them (c was 0 or 2).
    assert.match(await refusal(d, question('outcomes', 'HV::Pair')), /^hidden-values\.sysml:21:20: the move t1@w writes 'a' and 'b', .* and 'r', which may run meanwhile, reads both/);
    // A reader of one of them sees it before or after: answered.
    const apart = await ask(d, question('outcomes', 'HV::Apart'));
    assert.deepEqual(ends(apart, 'c').sort(), [0, 1]);
  });
});

describe('behaviour soundness: the table of modeled constructs', () => {
  it('names every construct once, each with its spec clause, and docs/execution-semantics.md lists them all', () => {
    const all = [...MODELED_CONSTRUCTS, ...INERT_CONSTRUCTS];
    assert.equal(new Set(all.map((r) => r.construct)).size, all.length);
    for (const r of all) assert.match(r.spec, /(SysML|KerML) \d/, r.construct);
    const doc = readFileSync(join(ROOT, 'docs', 'execution-semantics.md'), 'utf8');
    for (const r of all) assert.ok(doc.includes(`| \`${r.construct}\` |`), `docs list ${r.construct}`);
  });
  it('an integer literal beyond 2^53 keeps every digit in a behaviour, as evaluate does', async () => {
    const d = [text('big.sysml', `package BIG {
      private import ScalarValues::*;
      action def M {
        attribute a : Integer := 12345678901234567;
        attribute c : Integer := 9007199254740993 * 3;
      }
    }`)];
    const o = await ask(d, question('outcomes', 'BIG::M'));
    assert.deepEqual([ends(o, 'a').map(String), ends(o, 'c').map(String)], [['12345678901234567'], ['27021597764222979']]);
  });
});
