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
  words.forEach((word, i) => assert.deepEqual([...postings.get(word)].filter((id) => id === i || id === i + 1).sort((a, b) => a - b), [i, i + 1], word));
  assert.equal(postings.get('word0').filter((id) => id === 0).length, 1);
  assert.equal(postings.get('not filed').length, 0);
});

test('an id beyond what the packing holds is refused rather than stored wrong', () => {
  assert.throws(() => new HashedPostingsBuilder().add('x', 2 ** 21), RangeError);
});
