/**
 * Steps run turn by turn (what a request waiting on an index build or a long array's work uses):
 * the same result as run at once, with other callbacks let in between slices.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { finish, inTurns, mapInTurns, type Steps } from '../../src/screening/steps.ts';

function* counting(to: number): Steps<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < to; i++) {
    seen.push(i);
    yield;
  }
  return seen;
}

test('steps run turn by turn answer as run at once, and let other callbacks run between slices', async () => {
  let finished = false;
  const immediate = new Promise<boolean>((resolve) => setImmediate(() => resolve(finished)));
  const result = await inTurns(counting(50), 0);
  finished = true;
  assert.deepEqual(result, finish(counting(50)));
  assert.equal(await immediate, false, 'an immediate queued before the work ran before it finished');
});

test('an array mapped turn by turn is the array mapped, item and index, with other callbacks let in between slices', async () => {
  let finished = false;
  const immediate = new Promise<boolean>((resolve) => setImmediate(() => resolve(finished)));
  const items = ['a', 'b', 'c', 'd'];
  const mapped = await mapInTurns(items, (item, i) => `${item}${i}`, 0);
  finished = true;
  assert.deepEqual(mapped, ['a0', 'b1', 'c2', 'd3']);
  assert.deepEqual(await mapInTurns([], () => 1), []);
  assert.equal(await immediate, false, 'an immediate queued before the work ran before it finished');
});
