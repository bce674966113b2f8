import { strict as assert } from 'node:assert';
import { formatDuration, parseDuration } from '../../src/adapter/duration';
import { parseFlags, type FlagSpec } from '../../src/adapter/flags';
import { UsageError } from '../../src/adapter/outcome';

const specs: FlagSpec[] = [
  { name: 'task-ids', kind: 'string', description: '' },
  { name: 'timeout', kind: 'duration', description: '' },
  { name: 'wait', kind: 'boolean', description: '' },
];

describe('adapter flags and durations', () => {
  it('parses Go durations to milliseconds', () => {
    assert.equal(parseDuration('1m30s'), 90_000);
    assert.equal(parseDuration('250ms'), 250);
    assert.equal(parseDuration('2s'), 2000);
    assert.equal(parseDuration('1.5h'), 5_400_000);
    assert.equal(parseDuration('0'), 0);
    assert.equal(parseDuration('1500us'), 1.5);
    assert.equal(parseDuration('-2s'), -2000);
  });

  it('rejects durations without a unit or with junk, saying why', () => {
    const bare = parseDuration('5');
    assert.ok(typeof bare === 'object' && /missing unit/.test(bare.error));
    for (const bad of ['', 's', '1x', '1m30', 'abc', '1 s']) assert.equal(typeof parseDuration(bad), 'object', bad);
  });

  it('formats durations the Go way', () => {
    assert.equal(formatDuration(90_000), '1m30s');
    assert.equal(formatDuration(250), '250ms');
    assert.equal(formatDuration(2000), '2s');
    assert.equal(formatDuration(3_600_000), '1h0m0s');
  });

  it('accepts one or two dashes, separate or = values; the last occurrence wins', () => {
    for (const args of [['-task-ids', 'a,b'], ['--task-ids', 'a,b'], ['-task-ids=a,b'], ['--task-ids=a,b'], ['-task-ids', 'x', '--task-ids=a,b']]) {
      assert.equal(parseFlags(args, specs).values.get('task-ids'), 'a,b', args.join(' '));
    }
    assert.equal(parseFlags(['-timeout', '1m30s'], specs).values.get('timeout'), 90_000);
  });

  it('boolean flags take no separate value but accept =true/=false', () => {
    assert.equal(parseFlags(['--wait'], specs).values.get('wait'), true);
    assert.equal(parseFlags(['-wait=false'], specs).values.get('wait'), false);
    assert.throws(() => parseFlags(['-wait=maybe'], specs), UsageError);
  });

  it('reports unknown flags, missing values, stray arguments and bad durations as usage errors', () => {
    assert.throws(() => parseFlags(['-nope'], specs), /unknown flag "-nope"/);
    assert.throws(() => parseFlags(['-task-ids'], specs), /needs a value/);
    assert.throws(() => parseFlags(['stray'], specs), /unexpected argument "stray"/);
    assert.throws(() => parseFlags(['-timeout', '5'], specs), /missing unit/);
  });

  it('recognises help in every spelling', () => {
    for (const h of ['-h', '--help', '-help', 'help']) assert.equal(parseFlags([h], specs).help, true, h);
  });
});
