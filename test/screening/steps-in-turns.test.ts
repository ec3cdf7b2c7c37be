/**
 * Steps run turn by turn (what a request waiting on an index build uses): the same result as run
 * at once, with other callbacks let in between slices.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { finish, inTurns, type Steps } from '../../src/screening/steps.ts';

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
