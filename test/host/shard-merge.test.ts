// The merge of a table question's shards stands no higher than its weakest shard, and a table with rows
// missing is observed in part: its summaries are over the rows present only.
import assert from 'node:assert/strict';
import { mergeShards, type ShardAnswer } from '../../src/host/shard-merge';
import type { Question, Strength } from '../../src/protocol';

const question: Question = { kind: 'sweep', subject: 'P::f', schedule: 'fifo', free: [], sweep: { ranges: [{ parameter: 'x', type: 'Real', from: 1, to: 4, step: 1 }] } };

/** Shard k of 2 over 4 rows (x = 1…4, y = 10·x), as the bundled engine's `--shard k/2 --json` gives it. */
function shard(k: 1 | 2, strength: Strength, reasons: string[] = []): ShardAnswer {
  const rows = k === 1 ? [1, 2] : [3, 4];
  return {
    question, engine: 'assay-reference',
    result: {
      claim: 'table', strength,
      values: [
        ...rows.flatMap((x) => [{ name: `x@${x}`, value: x }, { name: `y@${x}`, value: 10 * x }]),
        { name: 'shard.from', value: rows[0]! }, { name: 'shard.to', value: rows[1]! }, { name: 'shard.rows', value: 4 },
      ],
    },
    standing: { claimed: strength, strength, reasons },
  };
}

describe('host: merging table shards', () => {
  it('two proved shards: the whole table, proved, summaries over every row', () => {
    const m = mergeShards(2, new Map([[1, shard(1, 'proved')], [2, shard(2, 'proved')]]), new Map(), 5);
    assert.ok(!('error' in m));
    assert.equal(m.standing.strength, 'proved');
    assert.deepEqual(m.missing, []);
    assert.equal(m.result.values!.find((v) => v.name === 'max(y)')?.value, 40);
  });

  it('a shard that stands lower lowers the merged answer, with its reasons', () => {
    const m = mergeShards(2, new Map([[1, shard(1, 'proved')], [2, shard(2, 'observed', ['a draw was rounded'])]]), new Map(), 5);
    assert.ok(!('error' in m));
    assert.deepEqual([m.standing.claimed, m.standing.strength, m.standing.reasons], ['observed', 'observed', ['a draw was rounded']]);
  });

  it('a missing shard: the rows present, observed, the reason naming the rows', () => {
    const m = mergeShards(2, new Map([[1, shard(1, 'proved')]]), new Map([[2, 'the worker was lost']]), 5);
    assert.ok(!('error' in m));
    assert.equal(m.standing.strength, 'observed');
    assert.match(m.standing.reasons.join('\n'), /shard 2: rows 3-4 missing: the worker was lost: the table and its summaries are over the rows present only/);
    assert.equal(m.result.values!.find((v) => v.name === 'max(y)')?.value, 20);
  });
});
