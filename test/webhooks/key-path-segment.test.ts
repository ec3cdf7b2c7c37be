/**
 * Which member names of an inbound payload are kept in its key paths, and how: field names are,
 * with their dots escaped; anything that could be personal data is written `<key>`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { keyPathSegment, REPLACED_KEY } from '../../src/webhooks/key-path-segment.ts';
import { payloadKeyPaths } from '../../src/webhooks/payload-keys.ts';

describe('a member name in a key path', () => {
  test('an identifier-like name is kept as it is', () => {
    for (const key of ['session_id', 'visitor', 'checkedInAt', '_links', 'badge-number', 'v2', 'x', `a${'b'.repeat(63)}`]) {
      assert.equal(keyPathSegment(key), key);
    }
  });

  test('an email address, a name with spaces or a phone number is replaced', () => {
    for (const key of ['jane.doe@example.com', 'Jane Doe', '+1 555 0134 7788', '+15550134778', 'tel_5550134778', 'dob_1984-07-19', 'Jane ']) {
      assert.equal(keyPathSegment(key), REPLACED_KEY, key);
    }
  });

  test('anything else that is not identifier-like is replaced: a leading digit, other characters, an empty or too long name', () => {
    for (const key of ['1st', 'a/b', 'a[]', '<key>', 'a\\.b', 'naïve', '', ' ', 'a..b', '.a', 'a.', `a${'b'.repeat(64)}`, `${'ab.'.repeat(21)}ab`]) {
      assert.equal(keyPathSegment(key), REPLACED_KEY, JSON.stringify(key));
    }
  });

  test('a dotted name of identifiers is kept with each dot escaped as \\.', () => {
    assert.equal(keyPathSegment('com.acme.badge'), 'com\\.acme\\.badge');
    assert.equal(keyPathSegment('user.id'), 'user\\.id');
  });
});

describe('key paths of a payload with personal data as member names', () => {
  test('keep the shape and neither the email nor the name', () => {
    const payload = { attendees: { 'jane.doe@example.com': { status: 'in' }, 'Jane Doe': { status: 'out', badge: 'V-7' } }, site: 'HQ' };
    const { paths } = payloadKeyPaths(payload);
    assert.deepEqual(paths, ['attendees', 'attendees.<key>', 'attendees.<key>.badge', 'attendees.<key>.status', 'site']);
    assert.doesNotMatch(JSON.stringify(paths), /jane|doe|example/i);
  });

  test('a dotted key and the same keys nested give different paths', () => {
    assert.deepEqual(payloadKeyPaths({ 'com.acme': { id: 1 }, com: { acme: { id: 2 } } }).paths, [
      'com',
      'com.acme',
      'com.acme.id',
      'com\\.acme',
      'com\\.acme.id',
    ]);
  });
});
