import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffSteps } from '../../src/lists/list-content.ts';
import { finish } from '../../src/screening/steps.ts';

test('the difference between two versions names each entry added, removed or changed once, by its entry id, and pauses after every entry', () => {
  const before = new Map([
    ['1', 'aa'],
    ['2', 'bb'],
    ['3', 'cc'],
  ]);
  const after = [
    { entryId: '1', sha256: 'aa' },
    { entryId: '3', sha256: 'c2' },
    { entryId: '4', sha256: 'dd' },
  ];
  assert.deepEqual(finish(diffSteps(before, after)), { added: ['4'], removed: ['2'], changed: ['3'] });

  const steps = diffSteps(before, after);
  let pauses = 0;
  while (!steps.next().done) pauses += 1;
  assert.equal(pauses, after.length + before.size, 'a pause after each entry of either version');
  assert.deepEqual(finish(diffSteps(new Map(), [])), { added: [], removed: [], changed: [] });
});
