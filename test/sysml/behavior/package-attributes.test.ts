// A behaviour reads attributes its package declares (limits, delays beside the state machine): each has
// one value, the one its `=` gives, read where the behaviour's guards, triggers, effects and attribute
// values name it. Expected values are worked out by hand beside each question; answers are re-checked
// by replay.
import assert from 'node:assert/strict';
import type { BehaviorQuestion } from '../../../src/sysml/behavior';
import { ask, ends, refusal, text } from './asking';

const q = (subject: string): BehaviorQuestion => ({ kind: 'outcomes', subject, schedule: 'all', free: ['schedule'] });

describe('behaviour semantics: attributes of the package', () => {
  const d = [
    text('limits.sysml', `package Limits {
      private import ISQ::*;
      private import SI::*;
      attribute slowLimit : ISQSpaceTime::SpeedValue = 4.0 [km/h];
      attribute settle = half * 2;
      attribute half = 1.5 [s];
    }`),
    text('descent.sysml', `package Descent {
      private import ScalarValues::*;
      private import ISQ::*;
      private import SI::*;
      private import Limits::*;
      attribute base : Integer = 3;
      attribute limit = 2 * base;
      attribute unset : Integer;
      attribute many : Integer[2] = (1, 2);

      // 1.5 m/s is 5.4 km/h, above the package's 4 km/h: 'fast' is taken; its timed exit waits the
      // package's settle time, 2 * 1.5 s = 3 s.
      state def Landing {
        attribute speed : ISQSpaceTime::SpeedValue := 1.5 [m/s];
        attribute verdict : String := "unknown";
        entry; then falling;
        state falling;
        transition first falling if speed <= slowLimit then slow;
        transition first falling if speed > slowLimit then fast;
        state slow { entry assign verdict := "slow"; }
        state fast { entry assign verdict := "fast"; }
        transition first slow accept after settle then done;
        transition first fast accept after settle then done;
      }

      // Counts to the package's limit (2 * 3 = 6), named plainly and qualified.
      action def Count {
        attribute n : Integer := 0;
        first start;
        then merge m;
        then decide;
          if n < Descent::limit then inc;
          if n >= limit then done;
        action inc;
        then assign n := n + 1;
        then m;
      }

      // The action's own 'base' hides the package's: 10 is assigned, not 3.
      action def Shadow {
        attribute base : Integer = 10;
        attribute got : Integer := 0;
        first start;
        then assign got := base;
        then done;
      }

      action def ReadsUnset {
        attribute got : Integer := 0;
        first start;
        then assign got := unset;
        then done;
      }

      action def ReadsMany {
        attribute got : Integer := 0;
        first start;
        then assign got := many;
        then done;
      }
    }`),
  ];

  it('a guard compares with a package attribute in other units, and a timed transition waits a package duration', async () => {
    const a = await ask(d, q('Descent::Landing'));
    assert.deepEqual(ends(a, 'verdict'), ['fast']);
    assert.deepEqual(ends(a, 'end'), ['done']);
    // The package's attributes are not features of the machine: the answer does not list them.
    assert.ok(!(a.values ?? []).some((v) => /slowLimit|settle|half/.test(v.name)), JSON.stringify(a.values));
  });

  it('a package attribute computed from another is read by plain and qualified names', async () => {
    const a = await ask(d, q('Descent::Count'));
    assert.deepEqual(ends(a, 'n'), [6]);
  });

  it("the behaviour's own feature hides the package's of the same name", async () => {
    const a = await ask(d, q('Descent::Shadow'));
    assert.deepEqual(ends(a, 'got'), [10]);
  });

  it('a package attribute with no value, or with several, is refused where it is read', async () => {
    const unset = await refusal(d, q('Descent::ReadsUnset'));
    assert.match(unset, /descent\.sysml:\d+:\d+: 'unset' is the attribute Descent::unset of a package \(descent\.sysml:\d+:\d+\), which has no value/);
    const many = await refusal(d, q('Descent::ReadsMany'));
    assert.match(many, /'many' is the attribute Descent::many of a package .* which may have several values/);
  });
});
