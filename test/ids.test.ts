/**
 * Ids: a prefix, ten characters of time that sort as time does, sixteen random ones that do not
 * repeat and, within a millisecond, sort in the order the ids were made.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newId } from '../src/ids.ts';

const CROCKFORD = /^[0-9a-hjkmnp-tv-z]{26}$/;

test('ids carry their prefix, sort by creation time, and do not repeat', () => {
  const ids = Array.from({ length: 20_000 }, (_, i) => newId('scr', 1_700_000_000_000 + Math.floor(i / 10)));
  for (const id of ids) assert.match(id.slice(4), CROCKFORD);
  assert.equal(new Set(ids).size, ids.length);
  const times = ids.map((id) => id.slice(4, 14));
  assert.deepEqual(times, [...times].sort(), 'the time part sorts as the time does');
  assert.equal(newId('x', 0).slice(2, 12), '0000000000');
  // Every character of the random part is used: the bits are spread, not stuck.
  const seen = new Set(ids.flatMap((id) => [...id.slice(14)]));
  assert.equal(seen.size, 32);
});

test('ids of one kind made in the same millisecond sort in the order they were made, and the next cannot be guessed', () => {
  const now = 1_800_000_000_000;
  const events: string[] = [];
  // Interleaved with another kind, as a transaction records cases and events together.
  for (let i = 0; i < 5_000; i++) {
    events.push(newId('evt', now));
    newId('case', now);
  }
  assert.deepEqual(events, [...events].sort(), 'the order they were made in');
  assert.equal(new Set(events).size, events.length);
  assert.ok(
    events.every((id) => id.slice(4, 14) === events[0]?.slice(4, 14)),
    'they keep their millisecond',
  );
  // The step from one id to the next is random, not one: the tails' last characters are spread.
  const lastCharacters = new Set(events.map((id) => id.at(-1)));
  assert.ok(lastCharacters.size > 16, `last characters: ${[...lastCharacters].join('')}`);
  // The next millisecond sorts after them, whatever its random part.
  const next = newId('evt', now + 1);
  assert.match(next.slice(4), CROCKFORD);
  assert.ok(next > (events.at(-1) ?? ''));
});
