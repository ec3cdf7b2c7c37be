/**
 * The keys a stored determination is found by when a list changes: distinctive words of the names
 * it screened (never legal forms, never short words unless a name has nothing else), and the list
 * entries its screening counted, never a watchlist's or an uncounted one.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lookupWordKeys, partyKeys, storedWordKeys } from '../../../src/features/ownership/party-keys.ts';
import { emptyEntity } from '../../../src/screening/model.ts';

test("a company's name is stored under its distinctive words, not its legal form, and an entry's names find it", () => {
  const stored = storedWordKeys('Rosneftegaz Trading Limited Liability Company', false);
  assert.ok(stored.includes('word:rosneftegaz'));
  assert.ok(!stored.some((key) => key.includes('limited') || key.includes('company') || key.includes('llc')), stored.join(', '));
  const entry = emptyEntity({ list: 'OFAC_SDN', entryId: '1', type: 'organization', names: [{ full: 'ROSNEFTEGAZ LLC', kind: 'primary' }] });
  assert.ok(lookupWordKeys(entry).some((key) => stored.includes(key)));
});

test('short words are left out of what is stored unless the name has nothing else, and are always looked up', () => {
  assert.ok(!storedWordKeys('Li Wei Zhangsun', true).includes('word:li'));
  assert.deepEqual(storedWordKeys('Li Na', true).sort(), ['word:li', 'word:na']);
  const entry = emptyEntity({ list: 'OFAC_SDN', entryId: '2', type: 'person', names: [{ full: 'LI, Na', kind: 'primary' }] });
  assert.deepEqual(lookupWordKeys(entry).sort(), ['word:li', 'word:na']);
});

test("an entry's name is not looked up by its words common on the lists, unless it has nothing rarer", () => {
  const counts = new Map([
    ['trading', 400],
    ['global', 300],
    ['acme', 1],
  ]);
  const rarity = { nameCount: 58_785, counts };
  const entry = (full: string) => emptyEntity({ list: 'OFAC_SDN', entryId: '3', type: 'organization', names: [{ full, kind: 'primary' }] });
  assert.deepEqual(lookupWordKeys(entry('ACME GLOBAL TRADING LLC'), rarity), ['word:acme']);
  assert.deepEqual(lookupWordKeys(entry('GLOBAL TRADING LLC'), rarity).sort(), ['word:global', 'word:trading']);
  assert.deepEqual(lookupWordKeys(entry('ACME GLOBAL TRADING LLC')).sort(), ['word:acme', 'word:global', 'word:trading'], 'no table: every word');
});

test('the entries a screening counted are keys; an uncounted match and a watchlist entry are not', () => {
  const keys = partyKeys(
    [{ name: 'Blue Heron Logistics', kind: 'organization', country: 'CY' }],
    [
      {
        screening_matches: [
          { list: 'OFAC_SDN', entry_id: '40002', counted: true },
          { list: 'OFAC_SDN', entry_id: '40009', counted: false },
          { list: 'ORG:vendors', entry_id: 'wle_1', counted: false, watchlist: {} },
        ],
      },
    ],
  );
  const byKey = new Map(keys.map((k) => [k.key, k.names]));
  assert.deepEqual(byKey.get('entry:OFAC_SDN:40002'), []);
  assert.ok(!byKey.has('entry:OFAC_SDN:40009'));
  assert.ok(![...byKey.keys()].some((key) => key.includes('ORG:')));
  assert.deepEqual(byKey.get('word:heron'), [{ name: 'Blue Heron Logistics', kind: 'organization', country: 'CY' }]);
});
