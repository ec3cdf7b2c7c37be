import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HashedPostingsBuilder } from '../../src/screening/index/hashed-postings.ts';

test('hashed postings find every id filed under a key, once, and nothing under an unknown key', () => {
  const builder = new HashedPostingsBuilder();
  const words = Array.from({ length: 5000 }, (_, i) => `word${i}`);
  words.forEach((word, i) => {
    builder.add(word, i);
    builder.add(word, i + 1);
    builder.add(word, i); // filed twice, found once
  });
  const postings = builder.freeze();
  words.forEach((word, i) =>
    assert.deepEqual(
      [...postings.get(word)].filter((id) => id === i || id === i + 1).sort((a, b) => a - b),
      [i, i + 1],
      word,
    ),
  );
  assert.equal(postings.get('word0').filter((id) => id === 0).length, 1);
  assert.equal(postings.get('not filed').length, 0);
});

test('an id beyond what the packing holds is refused rather than stored wrong', () => {
  assert.throws(() => new HashedPostingsBuilder().add('x', 2 ** 21), RangeError);
});

test('postings frozen in steps, from many sorted runs merged, find exactly what one sort finds', () => {
  // Over 32,768 pairs the freeze sorts runs and merges them (see freezing()): 160,000 pairs make five uneven runs.
  const builder = new HashedPostingsBuilder();
  const words = Array.from({ length: 40_000 }, (_, i) => `w${(i * 7919) % 40_000}`);
  words.forEach((word, i) => {
    builder.add(word, i);
    builder.add(word, (i * 31) % 40_000);
    builder.add(`${word}x`, i);
    builder.add(word, i); // filed twice, found once
  });
  const steps = builder.freezing();
  let pauses = 0;
  let step = steps.next();
  for (; !step.done; step = steps.next()) pauses += 1;
  const postings = step.value;
  assert.ok(pauses > 5, `the freeze paused ${pauses} times`);
  words.forEach((word, i) => {
    const wanted = new Set([i, (i * 31) % 40_000]);
    const found = [...postings.get(word)].filter((id) => wanted.has(id));
    assert.deepEqual(
      found.sort((a, b) => a - b),
      [...wanted].sort((a, b) => a - b),
      word,
    );
    assert.ok(postings.get(`${word}x`).includes(i));
  });
});
