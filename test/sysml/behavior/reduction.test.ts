// Never wrong under partial-order reduction and bounds: a move is explored alone only when it is truly
// independent of the others and invisible to the question, an outcome is everything the answer reports
// of a run's end, and a depth bound covers every schedule within it. Each model is worked by hand in
// the comment beside it; `ask` replays every witness as the host does.
import assert from 'node:assert/strict';
import { answerBehavior, BehaviorError, recheckAnswer, type BehaviorQuestion } from '../../../src/sysml/behavior';
import { ask, ends, scalarPackage, unsupported } from './asking';

function question(kind: BehaviorQuestion['kind'], subject: string, extra: Partial<BehaviorQuestion> = {}): BehaviorQuestion {
  return { kind, subject, schedule: 'all', free: ['schedule'], ...extra };
}

const sorted = (xs: readonly unknown[]) => [...xs].map(String).sort();

describe('behaviour reduction: what a condition reads is visible', () => {
  // Two branches: x goes 0 → 1 → 0, z goes 0 → 1 → 0. After a1 and b1 (either order) x = 1 and z = 1.
  const fork = `first start; then fork f; then a1; then b1;
        action a1 { assign x := 1; } then a2;
        action a2 { assign x := 0; }
        action b1 { assign z := 1; } then b2;
        action b2 { assign z := 0; }
        first a2 then j; first b2 then j; join j;`;
  const model = scalarPackage('por.sysml', 'POR', `
    calc def Both { in a : Integer; in b : Integer; return : Boolean = a >= 1 and b >= 1; }
    action def Bound {
        attribute x : Integer := 0;
        attribute z : Integer := 0;
        attribute y : Integer = x;
        ${fork}
    }
    action def Calc {
        attribute x : Integer := 0;
        attribute z : Integer := 0;
        ${fork}
        calc both { return : Boolean = x >= 1 and z >= 1; }
        assert constraint notBoth { not both }
    }
    action def Typed {
        attribute x : Integer := 0;
        attribute z : Integer := 0;
        calc c : Both { in a = x; in b = z; }
        ${fork}
        assert constraint notBoth { not c }
    }
}`);

  it('a condition over a bound feature (y = x): violated after a1, b1, as over x itself', async () => {
    for (const condition of ['y < 1 or z < 1', 'x < 1 or z < 1']) {
      const a = await ask([model], question('holds', 'POR::Bound', { condition: { name: 'c', text: condition } }));
      assert.deepEqual([a.claim, a.strength, a.witness?.at], ['violated', 'proved', 2], condition);
    }
  });

  it('an asserted constraint over a calc usage, its own or typed by a calc definition: violated after a1, b1', async () => {
    for (const subject of ['POR::Calc', 'POR::Typed']) {
      const a = await ask([model], question('holds', subject));
      assert.deepEqual([a.claim, a.strength, a.witness?.at], ['violated', 'proved', 2], subject);
    }
  });
});

describe('behaviour reduction: a terminate is not independent of what it may end', () => {
  const model = scalarPackage('term.sysml', 'TERM', `
    action def Race {
        attribute x : Integer := 0;
        action a { assign x := 1; }
        then b;
        action b;
        terminate;
    }
    action def Inner {
        attribute x : Integer := 0;
        first start;
        then action work {
            first start;
            then fork;
              then a;
              then stop;
            action a { assign x := 1; }
            then b;
            action b;
            action stop terminate work;
        }
        then action tail;
        then done;
    }
}`);

  it('terminate racing a branch: it may end the run before or after a (x = 0 or 1), so the schedule matters', async () => {
    const o = await ask([model], question('outcomes', 'TERM::Race'));
    assert.deepEqual([o.strength, sorted(ends(o, 'x')), [...new Set(ends(o, 'end'))]], ['proved', ['0', '1'], ['terminated']]);
    const s = await ask([model], question('sensitive', 'TERM::Race'));
    assert.deepEqual([s.claim, s.strength, s.witness?.feature], ['sensitive', 'proved', 'x']);
  });

  it('terminate of an enclosing action racing a branch inside it: x = 0 or 1, then tail runs', async () => {
    const o = await ask([model], question('outcomes', 'TERM::Inner'));
    assert.deepEqual([o.strength, sorted(ends(o, 'x')), [...new Set(ends(o, 'end'))]], ['proved', ['0', '1'], ['done']]);
    const s = await ask([model], question('sensitive', 'TERM::Inner'));
    assert.deepEqual([s.claim, s.witness?.feature], ['sensitive', 'x']);
  });
});

describe('behaviour reduction: a guard read on arrival is a read of the move', () => {
  // c1 ends C, whose guarded succession reads g; w sets g in parallel. c1 before w: g is false, p does
  // not run (r = 0); w before c1: p runs (r = 1).
  const model = scalarPackage('guard.sysml', 'G', `
    action def G {
        attribute g : Boolean := false;
        attribute r : Integer := 0;
        first start;
        then fork f;
        then C;
        then w;
        action C { first start; then c1; action c1; }
        first C if g then p;
        action p { assign r := 1; }
        action w { assign g := true; }
    }
}`);

  it('a guarded succession out of a composite: both orders are outcomes, and the schedule matters', async () => {
    const o = await ask([model], question('outcomes', 'G::G'));
    assert.deepEqual([o.strength, sorted(ends(o, 'r'))], ['proved', ['0', '1']]);
    const s = await ask([model], question('sensitive', 'G::G'));
    assert.deepEqual([s.claim, s.witness?.feature], ['sensitive', 'r']);
  });
});

describe('behaviour outcomes: an outcome is everything reported of a run’s end', () => {
  // An action that decides on `guard`: the action `yes` if it holds, else `no` (each declared as given).
  const decision = (name: string, guard: string, yes: string, no: string) => `action ${name} {
            first start;
            then decide d;
            if ${guard} then ${/^\w+/.exec(yes)![0]};
            else ${/^\w+/.exec(no)![0]};
            action ${yes}
            action ${no}
        }`;
  const model = scalarPackage('ends.sysml', 'ENDS', `
    item def Open;
    item def Close;
    item def A;
    item def B;
    state def Door {
        entry; then idle;
        state idle;
        accept Open then opened;
        accept Close then closed;
        state opened;
        state closed;
    }
    state def Pick {
        entry; then idle;
        state idle;
        transition first idle then left;
        transition first idle then right;
        state left;
        state right;
    }
    state def Regions {
        attribute f : Boolean := false;
        entry; then on;
        state on parallel {
            state r1 {
                entry; then x;
                state x;
                transition first x do action { assign f := true; } then y;
                state y;
            }
            state r2 {
                entry; then p;
                state p;
                transition first p if f then q;
                transition first p if not f then w;
                state q;
                state w;
            }
        }
    }
    action def Status {
        attribute f : Boolean := false;
        first start;
        then fork fk;
        then a;
        then b;
        action a { assign f := true; }
        ${decision('b', 'f', 'stop { accept A; }', 'fine;')}
    }
    action def Places {
        attribute ready : Boolean := false;
        action setReady { assign ready := true; }
        ${decision('check', 'ready', 'waitA { accept A; }', 'waitB { accept B; }')}
    }
}`);

  it('two ends in different states are two outcomes: opened or closed, left or right', async () => {
    const door = await ask([model], question('outcomes', 'ENDS::Door', { free: ['schedule', 'inputs'] }));
    assert.deepEqual([door.strength, sorted(ends(door, 'state'))], ['proved', ['closed', 'opened']]);
    const pick = await ask([model], question('outcomes', 'ENDS::Pick'));
    assert.deepEqual([pick.strength, sorted(ends(pick, 'state'))], ['proved', ['left', 'right']]);
  });

  it('parallel regions: the configurations on.r1.y with on.r2.q or with on.r2.w are two outcomes', async () => {
    const o = await ask([model], question('outcomes', 'ENDS::Regions'));
    assert.deepEqual([o.strength, sorted(ends(o, 'state')), ends(o, 'f')], ['proved', ['on.r1.y, on.r2.q', 'on.r1.y, on.r2.w'], [true, true]]);
  });

  it('two deadlocks with the same values resting at different nodes are two outcomes', async () => {
    const o = await ask([model], question('outcomes', 'ENDS::Places'));
    assert.deepEqual([o.strength, ends(o, 'end'), ends(o, 'ready')], ['proved', ['deadlock', 'deadlock'], [true, true]]);
    assert.match(o.reason!, /deadlock \(t\d@check\.waitA\.accept1\); 2: deadlock \(t\d@check\.waitB\.accept2\)$/);
  });

  it('sensitive: a schedule that changes the configuration, the end status or where a deadlock rests, with the item named as outcomes names it', async () => {
    const cases: [string, string][] = [['ENDS::Pick', 'state'], ['ENDS::Regions', 'state'], ['ENDS::Status', 'end'], ['ENDS::Places', 'end']];
    for (const [subject, feature] of cases) {
      const s = await ask([model], question('sensitive', subject));
      assert.deepEqual([s.claim, s.strength, s.witness?.feature], ['sensitive', 'proved', feature], subject);
    }
  });

  it('a sensitive witness whose two schedules end alike in what it names is refuted on replay', async () => {
    const q = question('sensitive', 'ENDS::Pick');
    const s = await ask([model], q);
    const same = { claim: 'sensitive' as const, witness: { ...s.witness, schedules: [s.witness!.schedules![0]!, s.witness!.schedules![0]!] } };
    assert.deepEqual(recheckAnswer([model], q, same), { ok: false, reason: 'both schedules end with state = left' });
    const elsewhere = { claim: 'sensitive' as const, witness: { ...s.witness, feature: 'gear' } };
    assert.deepEqual(recheckAnswer([model], q, elsewhere), { ok: false, reason: 'gear is not a feature of ENDS::Pick, the end, or a configuration its runs end in' });
  });
});

describe('behaviour bounds: a depth bound covers every schedule within it', () => {
  const model = scalarPackage('depth.sysml', 'D', `
    action def Two {
        attribute x : Integer := 0;
        attribute y : Integer := 0;
        first start;
        then fork f;
        then a;
        then b;
        action a { assign y := 1; }
        then a2;
        action a2 { assign y := 2; }
        action b { assign x := 1; }
        then b2;
        action b2 { assign x := 2; }
    }
    state def Paths {
        entry; then s0;
        state s0;
        transition first s0 then s1;
        transition first s0 then s3;
        state s1;
        transition first s1 then s2;
        state s2;
        transition first s2 then s3;
        state s3;
        transition first s3 then s4;
        state s4;
        transition first s4 then done;
    }
}`);

  it('holds within depth 1: b alone breaks x < 1, though reduction would run a (invisible) first', async () => {
    const a = await ask([model], question('holds', 'D::Two', { condition: { name: 'c', text: 'x < 1' } }), [{ name: 'depth', limit: 1 }]);
    assert.deepEqual([a.claim, a.strength, a.witness?.at], ['violated', 'proved', 1]);
  });

  it('outcomes within depth 3: s0 → s3 → s4 → done ends in 3 moves, though depth-first meets s3 first at depth 3', async () => {
    const a = await ask([model], question('outcomes', 'D::Paths'), [{ name: 'depth', limit: 3 }]);
    assert.deepEqual([a.claim, ends(a, 'end')], ['outcomes', ['done']]);
    // Within depth 2 no run ends; said as within the bounds.
    const two = await answerBehavior([model], question('outcomes', 'D::Paths'), { bounds: [{ name: 'depth', limit: 2 }] });
    if (two instanceof BehaviorError) assert.fail(two.text);
    assert.deepEqual([two.claim, two.strength, two.bounds], ['none', 'bounded', [{ name: 'depth', limit: 2, reached: true }]]);
    assert.match(two.reason!, /^no run ends within the bounds \(/);
  });
});

describe('behaviour environment: a timed wait racing an event of the environment', () => {
  // In a, T may come from the environment, or not within 1 s: then the timed transition sets y = 1.
  // Time passes only when no move is enabled, and T always is: that race is refused where it is met.
  const model = scalarPackage('envtime.sysml', 'ET', `
    item def T;
    state def Mix {
        attribute y : Integer := 0;
        entry; then a;
        state a;
        transition first a accept T then b;
        transition first a accept after 1 [SI::s] do action { assign y := 1; } then c;
        state b;
        state c;
    }
}`);

  it('is refused with the transition and the wait, not answered as if the environment always sent first', async () => {
    const q = question('holds', 'ET::Mix', { free: ['schedule', 'inputs'], condition: { name: 'c', text: 'y == 0' } });
    assert.equal(await unsupported([model], q), "envtime.sysml:8:9: with the environment's events free, T may come from the environment at any time or not before the wait pending here comes due (at 1 s): a timed wait racing an event of the environment is not modeled (time passes only when no move is enabled)");
    // Without the environment's events the wait comes due: y = 1, in state c.
    const o = await ask([model], question('outcomes', 'ET::Mix'));
    assert.deepEqual([ends(o, 'y'), ends(o, 'state')], [[1], ['c']]);
  });
});
