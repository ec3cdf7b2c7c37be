import assert from 'node:assert/strict';
import { test } from 'node:test';
import { displayPrefix, generateApiKey, hashApiKey, parseApiKey } from '../../src/auth/api-key-format.ts';

test('keys carry their environment, 256 random bits in base62 and a checksum', () => {
  const live = generateApiKey('live');
  const sandbox = generateApiKey('test');
  assert.match(live, /^gk_live_[0-9A-Za-z]{49}$/);
  assert.match(sandbox, /^gk_test_[0-9A-Za-z]{49}$/);
  assert.equal(parseApiKey(live)?.environment, 'live');
  assert.equal(parseApiKey(sandbox)?.environment, 'test');
  assert.deepEqual(parseApiKey(live)?.hash, hashApiKey(live));
});

test('keys do not repeat', () => {
  const keys = new Set(Array.from({ length: 2000 }, () => generateApiKey('live')));
  assert.equal(keys.size, 2000);
});

test('every single-character typo and every truncation is refused by the checksum alone', () => {
  const key = generateApiKey('live');
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let refused = 0;
  let tried = 0;
  for (let i = 8; i < key.length; i++) {
    for (const c of alphabet) {
      if (c === key[i]) continue;
      tried++;
      if (parseApiKey(key.slice(0, i) + c + key.slice(i + 1)) === undefined) refused++;
    }
  }
  assert.equal(refused, tried);
  for (let n = 1; n < 10; n++) assert.equal(parseApiKey(key.slice(0, -n)), undefined);
  for (const swapped of [`${key.slice(0, 10)}${key[11]}${key[10]}${key.slice(12)}`]) {
    if (swapped !== key) assert.equal(parseApiKey(swapped), undefined);
  }
});

test('malformed credentials are not keys', () => {
  for (const bad of ['', 'gk_live_', `gk_prod_${'a'.repeat(49)}`, `sk_live_${'a'.repeat(49)}`, `${generateApiKey('live')} `]) {
    assert.equal(parseApiKey(bad), undefined, bad);
  }
});

test('only a short prefix is ever shown', () => {
  const key = generateApiKey('test');
  assert.equal(displayPrefix(key), `${key.slice(0, 12)}…`);
  assert.ok(!displayPrefix(key).includes(key.slice(12, 20)));
});
