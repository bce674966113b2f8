// State machines whose transitions and successions name nested states (and states inside regions of a
// parallel state), and the situations SysML v2 leaves open, which are refused where they arise. Every
// expected value is worked out by hand in the comment beside it; every answer is re-checked by replay.
import assert from 'node:assert/strict';
import type { BehaviorQuestion } from '../../../src/sysml/behavior';
import { ask, ends, text, unsupported as refusal } from './asking';

/** Every schedule, environment signals free: the ends of every run. */
const q = (subject: string): BehaviorQuestion => ({ kind: 'outcomes', subject, schedule: 'all', free: ['schedule', 'inputs'] });


/** What an answer about a behaviour with a timed wait rests on (questions.ts zeroTimeMoves). */
const ZERO_TIME = 'actions and transitions take no time: the clock advances to the next timed wait (accept after / at) only when nothing else can move, so a wait never comes due while another action could still run';
describe('behaviour semantics: transitions that name nested states', () => {
  const d = [text('nested.sysml', `package N {
    private import ScalarValues::*;
    // The initial state is nested two levels down; one transition leaves all three levels.
    state def Levels {
        attribute log : Integer := 0;
        entry; then Inner;
        state Outer {
            entry assign log := log * 10 + 1;
            exit assign log := log * 10 + 6;
            state Middle {
                entry assign log := log * 10 + 2;
                exit assign log := log * 10 + 5;
                state Inner {
                    entry assign log := log * 10 + 3;
                    exit assign log := log * 10 + 4;
                }
            }
        }
        transition leave first Outer accept Abort do assign log := log * 10 + 7 then Done;
        state Done { entry assign log := log * 10 + 8; }
    }

    // A transition into one region of a parallel state: the other region starts by its own default entry.
    state def Into {
        attribute l0 : Integer := 0;
        attribute r0 : Integer := 0;
        entry; then Idle;
        state Idle;
        accept Go then Deep;
        state P parallel {
            state left {
                entry; then L0;
                state L0 { entry assign l0 := l0 + 1; }
                state Mid { state Deep; }
            }
            state right {
                entry; then R0;
                state R0 { entry assign r0 := r0 + 1; }
            }
        }
    }

    // Leaving a parallel state from a state nested in one region exits every state once, inner first.
    // (The regions' exits touch different features: their order is not SysML v2's to give.)
    state def Out {
        attribute exits : Integer := 0;
        attribute order : Integer := 0;
        attribute lefts : Integer := 0;
        entry; then running;
        state running parallel {
            state left {
                entry; then lidle;
                state lidle { exit assign lefts := lefts + 1; }
            }
            state right {
                entry; then deep;
                exit assign order := order * 10 + 4;
                state wrapper {
                    exit assign order := order * 10 + 3;
                    state deep { exit assign order := order * 10 + 2; }
                }
            }
            exit assign exits := exits + 1;
        }
        transition first deep then outside;
        state outside;
    }

    // Two nested states share a name; inside A the name is A's own substate (KerML lookup), from the
    // machine's body it is ambiguous; a path names one.
    state def Twice {
        entry; then A;
        state A { entry; then x; state x; }
        state B { state x; }
        accept Go then x;
    }
    state def ByPath {
        entry; then A;
        state B { state x; }
        state A { entry; then x; state x; }
        accept Go then B.x;
    }
}`)];

  it('entering a nested initial state enters its ancestors outer to inner; leaving runs exits inner to outer, then the effect, then the entry', async () => {
    const o = await ask(d, q('N::Levels'));
    // Entries 1, 2, 3; on Abort exits Inner (4), Middle (5), Outer (6), the effect (7), Done's entry (8).
    assert.deepEqual([ends(o, 'log'), ends(o, 'state')], [[12345678], ['Done']]);
    // `then Inner;` names a state KerML's lookup does not see from the machine's body: the answer says it
    // rests on OpenSysML's reading, with both places.
    assert.equal(o.assumptions?.length, 1);
    assert.match(o.assumptions![0]!, /^nested\.sysml:\d+:\d+: 'Inner' names no state visible here .*read as the only state so named, 'Outer\.Middle\.Inner' at nested\.sysml:\d+:\d+ \(OpenSysML's reading; SysML v2 names it by its path\)$/);
  });

  it('a transition to a state in one region of a parallel state enters the other region by its default entry', async () => {
    const o = await ask(d, q('N::Into'));
    // Go: P, left and Mid are entered on the way to Deep (L0 is not: the target is explicit); right starts at R0.
    assert.deepEqual([ends(o, 'state'), ends(o, 'l0'), ends(o, 'r0')], [['P.left.Mid.Deep, P.right.R0'], [0], [1]]);
  });

  it('leaving a parallel state from a nested substate of one region exits each state once, the other region too', async () => {
    const o = await ask(d, q('N::Out'));
    // The other region is exited (lidle: lefts 1); the source's chain inner to outer (deep 2, wrapper 3,
    // right 4); running's own exit once.
    assert.deepEqual([ends(o, 'order'), ends(o, 'lefts'), ends(o, 'exits'), ends(o, 'state')], [[234], [1], [1], ['outside']]);
  });

  it('a name two nested states have is refused naming both; a path or the lexically visible one is not', async () => {
    const t = await refusal(d, q('N::Twice'));
    assert.match(t, /^nested\.sysml:\d+:\d+: 'x' names no state of this body or of the states around it, and 2 nested states have that name: 'A\.x' \(nested\.sysml:\d+:\d+\), 'B\.x' \(nested\.sysml:\d+:\d+\)/);
    const o = await ask(d, q('N::ByPath'));
    assert.deepEqual(ends(o, 'state'), ['B.x']);
    assert.equal(o.assumptions, undefined, 'a path is SysML v2: nothing assumed');
  });
});

describe('behaviour semantics: what SysML v2 leaves open about nested states is refused where it arises', () => {
  const d = [text('open.sysml', `package O {
    private import ScalarValues::*;
    // Abort is accepted by Step1 and by Working, which holds it.
    state def Both {
        entry; then Step1;
        state Working {
            state Step1;
            accept Abort then Step2;
            state Step2;
        }
        accept Abort then Done;
        state Done;
    }
    // Different signals: no conflict; each run takes one of them.
    state def Either {
        attribute n : Integer := 0;
        entry; then Step1;
        state Working {
            state Step1;
            accept Next then Step2;
            state Step2 { entry assign n := 1; }
        }
        accept Abort then Done;
        state Done;
    }
    // A transition from one region of a parallel state to another.
    state def Across {
        attribute go : Boolean := true;
        entry; then running;
        state running parallel {
            state left { entry; then lidle; state lidle; transition first lidle if go then rtarget; }
            state right { entry; then ridle; state ridle; state rtarget; }
        }
    }
    state def AcrossNever {
        attribute go : Boolean := false;
        entry; then running;
        state running parallel {
            state left { entry; then lidle; state lidle; transition first lidle if go then rtarget; }
            state right { entry; then ridle; state ridle; state rtarget; }
        }
    }
    // A transition with nothing before it in the state's body, and one after a do action.
    state def First {
        entry; then waiting;
        state waiting { accept Go then working; }
        state working;
    }
    state def AfterDo {
        entry; then waiting;
        state waiting;
        do action arm;
        accept Go then working;
        state working;
    }
    // Initial transitions: to a state that is not a substate, and with a guard.
    state def Outside {
        entry; then A;
        state A { entry; then B; }
        state B;
    }
    state def Guarded {
        attribute ok : Boolean := true;
        entry; if ok then A;
        state A;
    }
}`)];

  it('a transition of a state and one of the state holding it, enabled by one signal, are refused naming both', async () => {
    const t = await refusal(d, q('O::Both'));
    assert.match(t, /^open\.sysml:8:13: the transition 'Working\.Step1->Step2' of 'Working\.Step1' and the transition 'Working->Done' at open\.sysml:11:9 of 'Working', a state it is nested in, are both enabled by the signal Abort: SysML v2 does not say which one is taken/);
  });

  it('a composite state\'s transition applies while a substate is active; different signals are two runs', async () => {
    const o = await ask(d, q('O::Either'));
    // Abort from Step1: Done, n = 0; Next then Abort: Done, n = 1.
    assert.deepEqual([ends(o, 'state'), ends(o, 'n').sort()], [['Done', 'Done'], [0, 1]]);
  });

  it('a transition between two regions of a parallel state is refused where it is taken, and answered where it never is', async () => {
    const t = await refusal(d, q('O::Across'));
    assert.match(t, /^open\.sysml:\d+:\d+: this transition goes from 'running\.left\.lidle' in the region 'running\.left' of the parallel state 'running' to 'running\.right\.rtarget' in its region 'running\.right': SysML v2 does not say/);
    const o = await ask(d, q('O::AcrossNever'));
    assert.deepEqual(ends(o, 'state'), ['running.left.lidle, running.right.ridle']);
  });

  it("a transition written without a source that follows no state leaves the nested state whose body holds it (OpenSysML's reading, listed), and is refused in a machine's own body, citing the grammar", async () => {
    const first = await ask(d, q('O::First'));
    assert.deepEqual(ends(first, 'state'), ['working']);
    assert.deepEqual(first.assumptions, ["open.sysml:46:25: a transition written without 'first S' that follows no state in the body of 'waiting' (outside the SysML v2 grammar, BNF StateBodyItem) is read as a transition of 'waiting' itself (OpenSysML's reading)"]);
    assert.match(await refusal(d, q('O::AfterDo')), /this transition has no source state: one written without 'first S' leaves the state declared just before it \(SysML BNF StateBodyItem: BehaviorUsageMember TargetTransitionUsageMember\*\)/);
  });

  it('an initial state outside the state, or a guarded initial transition, is refused', async () => {
    assert.match(await refusal(d, q('O::Outside')), /the initial state of 'A' must be one of its substates; 'B' is not/);
    assert.match(await refusal(d, q('O::Guarded')), /an initial transition with a guard is not modeled/);
  });
});

describe('behaviour semantics: a composite state completes when its region reaches its own done', () => {
  const d = [text('completion.sysml', `package C {
    private import ScalarValues::*;
    private import SI::*;
    // \`then done\` in outer's body is outer's own done: outer stays active and its 5 s transition fires.
    state def OwnDone {
        attribute log : Integer := 0;
        entry; then outer;
        state outer {
            entry; then i1;
            state i1;
            accept after 1 [s] then done;
        }
        transition first outer accept after 5 [s] do assign log := 9 then off;
        state off;
    }
    // A completion transition (no trigger) of a composite waits for its region to complete.
    state def Waits {
        attribute log : Integer := 0;
        entry; then outer;
        state outer {
            entry; then i1;
            state i1;
            accept after 2 [s] do assign log := log * 10 + 1 then i2;
            state i2;
            accept after 2 [s] do assign log := log * 10 + 2 then done;
        }
        transition first outer do assign log := log * 10 + 9 then off;
        state off;
    }
    // A parallel state completes when every region has reached its own done.
    state def Regions {
        attribute seen : Integer := 0;
        attribute log : Integer := 0;
        entry; then P;
        state P parallel {
            state r1 { entry; then a; state a; accept after 1 [s] then done; }
            state r2 { entry; then b; state b; accept after 3 [s] do assign seen := 1 then done; }
        }
        transition first P do assign log := seen + 10 then off;
        state off;
    }
    // Written without a source in a's body (OpenSysML's notation, read as a transition of a): OpenSysML's
    // done, the machine's end.
    state def Sourceless {
        entry; then a;
        state a { accept after 1 [s] then done; }
    }
    // A region that is a simple state has no done of its own to reach.
    state def SimpleRegion {
        entry; then P;
        state P parallel {
            state r1;
            state r2 { entry; then b; state b; accept after 1 [s] then done; }
        }
        transition first P then off;
        state off;
    }
    // \`done\` in a parallel state's body: its regions run on.
    state def DoneInParallel {
        entry; then P;
        state P parallel {
            state r1 { entry; then a; state a; }
            state r2 { entry; then b; state b; }
            transition first r1 then done;
        }
    }
}`)];
  const all = (subject: string): BehaviorQuestion => ({ kind: 'outcomes', subject, schedule: 'all', free: ['schedule'] });

  it("`then done` in a nested state's body completes that state, which stays active: its own transitions still fire", async () => {
    const o = await ask(d, all('C::OwnDone'));
    // i1 -> done at 1 s: outer rests completed; at 5 s its transition sets log to 9 and enters off.
    assert.deepEqual([ends(o, 'state'), ends(o, 'log')], [['off'], [9]]);
  });

  it("a composite state's completion transition waits for its region to reach done", async () => {
    const o = await ask(d, all('C::Waits'));
    // i1 -> i2 at 2 s (1), i2 -> done at 4 s (2), then the completion transition (9).
    assert.deepEqual([ends(o, 'state'), ends(o, 'log')], [['off'], [129]]);
  });

  it("a parallel state's completion transition waits for every region", async () => {
    const o = await ask(d, all('C::Regions'));
    // r1 completes at 1 s, r2 at 3 s setting seen; only then P -> off: log = 1 + 10.
    assert.deepEqual([ends(o, 'state'), ends(o, 'log')], [['off'], [11]]);
  });

  it("a transition written without a source in a nested state's body keeps OpenSysML's reading of done: the machine ends (listed)", async () => {
    const o = await ask(d, all('C::Sourceless'));
    assert.deepEqual([ends(o, 'end'), o.assumptions], [['done'], ["completion.sysml:46:19: a transition written without 'first S' that follows no state in the body of 'a' (outside the SysML v2 grammar, BNF StateBodyItem) is read as a transition of 'a' itself, and its target `done` as the machine's end (OpenSysML's reading)", ZERO_TIME]]);
  });

  it('a completion transition of a parallel state with a simple-state region, and done in a parallel body, are refused', async () => {
    assert.match(await refusal(d, all('C::SimpleRegion')), /^completion\.sysml:\d+:\d+: this transition has no trigger, so it waits for 'P' to complete: every region of the parallel state reaching its own done; the region 'P\.r1' is a simple state/);
    assert.match(await refusal(d, all('C::DoneInParallel')), /^completion\.sysml:\d+:\d+: a transition to done in the body of the parallel state 'P' is not modeled/);
  });
});
