/**
 * Ids: a prefix, ten characters of time that sort as time does, sixteen random ones that do not repeat.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newId } from '../src/ids.ts';

test('ids carry their prefix, sort by creation time, and do not repeat', () => {
  const ids = Array.from({ length: 20_000 }, (_, i) => newId('scr', 1_700_000_000_000 + Math.floor(i / 10)));
  for (const id of ids) assert.match(id, /^scr_[0-9a-hjkmnp-tv-z]{26}$/);
  assert.equal(new Set(ids).size, ids.length);
  const times = ids.map((id) => id.slice(4, 14));
  assert.deepEqual(times, [...times].sort(), 'the time part sorts as the time does');
  assert.equal(newId('x', 0).slice(2, 12), '0000000000');
  // Every character of the random part is used: the bits are spread, not stuck.
  const seen = new Set(ids.flatMap((id) => [...id.slice(14)]));
  assert.equal(seen.size, 32);
});
