/**
 * A version's entries kept as text in shared memory: in entry-id order whatever order they were
 * read in, a following version assembled from the one before and what changed (texts in any
 * script, whose UTF-8 is longer than their characters), and one entity read back for display.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { textAt, textCount } from '../../src/lists/packed-texts.ts';
import { followingEntries, storedEntity, storedEntries } from '../../src/lists/stored-entries.ts';

const text = (entryId: string, name: string) => JSON.stringify({ list: 'OFAC_SDN', entryId, names: [{ full: name, kind: 'primary' }] });
const row = (entryId: string, name = `Entry ${entryId}`) => ({ entryId, text: text(entryId, name) });

test('entries are kept in entry-id order, compared as strings, whatever order the database returned them in', () => {
  const entries = storedEntries([row('30'), row('100'), row('2')]);
  assert.deepEqual(entries.ids, ['100', '2', '30']);
  assert.deepEqual(
    Array.from({ length: textCount(entries.texts) }, (_, i) => JSON.parse(textAt(entries.texts, i)).entryId),
    ['100', '2', '30'],
  );
  assert.ok(entries.texts.bytes.buffer instanceof SharedArrayBuffer, 'shared with the index thread, not copied to it');
});

test('a following version keeps the unchanged entries, drops the removed, and takes the changed and added as read', () => {
  const previous = storedEntries([row('1'), row('2'), row('3'), row('5')]);
  // 2 removed, 3 changed, 4 and 6 added: the changed and the added are what was read for the new version.
  const next = followingEntries(previous, new Set(['2', '3']), [row('6'), row('3', 'Renamed'), row('4')]);
  assert.deepEqual(next.ids, ['1', '3', '4', '5', '6']);
  assert.equal(storedEntity(next, '3')?.names[0]?.full, 'Renamed');
  assert.equal(storedEntity(next, '1')?.names[0]?.full, 'Entry 1');
  assert.equal(storedEntity(next, '2'), undefined);
  assert.deepEqual(next, storedEntries([row('1'), row('3', 'Renamed'), row('4'), row('5'), row('6')]), 'as a fresh read of the new version would be');
});

test('names in other scripts survive the merge byte for byte', () => {
  const previous = storedEntries([row('1', 'Владимир Путин'), row('2', 'محمد بن سلمان'), row('3', '金正恩'), row('4', 'Łukasz Żółć')]);
  const next = followingEntries(previous, new Set(['2']), [row('2', 'محمد بن سلمان آل سعود'), row('5', 'Kim Jong Un')]);
  assert.deepEqual(
    next.ids.map((id) => storedEntity(next, id)?.names[0]?.full),
    ['Владимир Путин', 'محمد بن سلمان آل سعود', '金正恩', 'Łukasz Żółć', 'Kim Jong Un'],
  );
});

test('an entry read again under an id the previous version has replaces it, even if not named as changed', () => {
  const next = followingEntries(storedEntries([row('1'), row('2')]), new Set(), [row('2', 'Again')]);
  assert.deepEqual(next.ids, ['1', '2']);
  assert.equal(storedEntity(next, '2')?.names[0]?.full, 'Again');
});

test('an entity is read back from its text; an id the version lacks finds nothing', () => {
  const entries = storedEntries([row('10001', 'Karim Yusuf Abu-Ali'), row('20001')]);
  assert.deepEqual(storedEntity(entries, '10001'), JSON.parse(text('10001', 'Karim Yusuf Abu-Ali')));
  assert.equal(storedEntity(entries, '10002'), undefined);
  assert.equal(storedEntity(storedEntries([]), '1'), undefined);
});
