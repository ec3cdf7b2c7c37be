/**
 * What lets a small index (an organization's watchlist) screen as the public lists' index does:
 * words weighed by the large index's rarity, so that an entry scores the same in either; entities
 * the caller no longer accepts, which take no place among the matches returned; and names from
 * more lists than a byte counts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SubjectQuery } from '../../src/screening/match-types.ts';
import { emptyEntity, type ListEntity } from '../../src/screening/model.ts';
import { buildScreeningIndex } from '../../src/screening/screening-index.ts';

const person = (entryId: string, name: string, list = 'TEST'): ListEntity =>
  emptyEntity({ list, entryId, type: 'person', names: [{ full: name, kind: 'primary' }] });

// Sixty names, "Mohammed" on most of them, so that the words' rarities differ and are known.
const GIVEN = ['Mohammed', 'Mohammed', 'Mohammed', 'Ahmed', 'Yusuf'];
const FAMILY = ['Haddad', 'Karimi', 'Nasser', 'Sultani', 'Farouk', 'Rahimi', 'Qasemi', 'Tabrizi', 'Zamani', 'Jaberi', 'Moradi', 'Shirazi'];
const crowd = FAMILY.flatMap((family, f) => GIVEN.map((given, g) => person(`${f}-${g}`, `${given} ${family}`)));

describe('a small index weighing words by a large one', () => {
  const listed = person('wl-1', 'Mohammed Al-Tabrizi Haddad');
  const query: SubjectQuery = { name: 'Mohammed Haddad', kind: 'person' };
  const scored = (index: ReturnType<typeof buildScreeningIndex>) => index.screen(query, { threshold: 0, limit: 50 }).find((m) => m.entity.entryId === 'wl-1');

  test('scores an entry exactly as the large index does, word weights and all', () => {
    const large = buildScreeningIndex([listed, ...crowd]);
    const inLarge = scored(large);
    const alone = scored(buildScreeningIndex([listed], { rarity: large.rarity() }));
    assert.ok(inLarge && alone);
    assert.equal(alone.score, inLarge.score);
    assert.deepEqual(
      alone.explanation.tokens.map((t) => t.weight),
      inLarge.explanation.tokens.map((t) => t.weight),
    );
  });

  test('weighs by its own few names without one: a common word weighs as much as a rare one', () => {
    const alone = scored(buildScreeningIndex([listed]));
    const weights = new Map(alone?.explanation.tokens.map((t) => [t.query ?? t.list, t.weight]));
    assert.equal(weights.get('mohammed'), weights.get('haddad'));
    const shared = scored(buildScreeningIndex([listed], { rarity: buildScreeningIndex(crowd).rarity() }));
    const sharedWeights = new Map(shared?.explanation.tokens.map((t) => [t.query ?? t.list, t.weight]));
    assert.ok((sharedWeights.get('mohammed') as number) < (sharedWeights.get('haddad') as number), JSON.stringify([...sharedWeights]));
  });
});

describe('entities the caller does not accept', () => {
  test('are not matched, and leave their place among the `limit` returned to the next', () => {
    const index = buildScreeningIndex([person('a', 'Halvard Renstrom'), person('b', 'Halvard Renstrom'), person('c', 'Halvard Renstrom')]);
    const query: SubjectQuery = { name: 'Halvard Renstrom', kind: 'person' };
    assert.deepEqual(
      index.screen(query, { limit: 1, accept: (e) => e.entryId === 'c' }).map((m) => m.entity.entryId),
      ['c'],
    );
    const byPassport = buildScreeningIndex([{ ...person('p', 'Ingrid Solvang'), identifiers: [{ type: 'Passport', value: 'X9876543' }] }]);
    const withPassport: SubjectQuery = { name: 'Someone Else', kind: 'person', identifiers: [{ type: 'passport', value: 'X9876543' }] };
    assert.equal(byPassport.screen(withPassport).length, 1);
    assert.deepEqual(byPassport.screen(withPassport, { accept: () => false }), [], 'nor found by an identifier');
  });
});

describe('an index over many lists', () => {
  test('holds names from more than 256 lists, each filtered as its own', () => {
    const entities = Array.from({ length: 300 }, (_, i) => person(`e${i}`, `Leopold Wexford-${i}`, `LIST_${i}`));
    const index = buildScreeningIndex(entities);
    for (const i of [0, 255, 256, 299]) {
      const found = index.screen({ name: `Leopold Wexford-${i}`, kind: 'person', lists: [`LIST_${i}`] });
      assert.deepEqual(
        found.map((m) => [m.entity.entryId, m.entity.list]),
        [[`e${i}`, `LIST_${i}`]],
      );
    }
    assert.ok(!index.screen({ name: 'Leopold Wexford-299', kind: 'person', lists: ['LIST_43'] }).some((m) => m.entity.entryId === 'e299'));
  });
});
