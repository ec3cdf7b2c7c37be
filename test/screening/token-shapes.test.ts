/**
 * Screening's speed rests on V8 seeing token comparison's arguments in a handful of hidden classes
 * (see keysFor in src/screening/index/vocabulary.ts). Keys spread with an optional field once left
 * half the vocabulary in dictionary mode and the rest on thousands of classes, and the engine ran
 * 40 % slower with identical results, which no other test notices. V8's own checks, enabled for
 * this file only, do.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import v8 from 'node:v8';
import { NameIndex } from '../../src/screening/index/name-index.ts';
import { type EntityType, emptyEntity, type ListEntity } from '../../src/screening/model.ts';
import { analyzeName } from '../../src/screening/normalize/analyze-name.ts';

v8.setFlagsFromString('--allow-natives-syntax');
const sameClass = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
const fastProperties = new Function('a', 'return %HasFastProperties(a)') as (a: object) => boolean;

const entity = (entryId: string, type: EntityType, ...names: string[]): ListEntity =>
  emptyEntity({ list: 'OFAC_SDN', entryId, type, names: names.map((full, i) => ({ full, kind: i === 0 ? 'primary' : 'strong_alias' })), programs: ['TEST'] });

// Latin, Cyrillic, Arabic, Hangul and Han (the last two carry a glyph), legal forms and numbers.
const index = new NameIndex([
  entity('1', 'person', 'PUTIN, Vladimir Vladimirovich', 'ПУТИН, Владимир'),
  entity('2', 'person', 'HUSSEIN, Saddam', 'صدام حسين'),
  entity('3', 'person', 'KIM, Jong Un', '김정은'),
  entity('4', 'person', 'XI, Jinping', '习近平'),
  entity('5', 'organization', 'ROSNEFT TRADING S.A.', 'ZENITH ELECTRONICS LLC'),
  entity('6', 'organization', 'KKR ASIAN FUND IV L.P.', 'FU YUAN YU 7621'),
]);

test('the checks can tell two hidden classes apart', () => {
  assert.equal(sameClass({ a: 1 }, { a: 2 }), true);
  assert.equal(sameClass({ a: 1 }, { b: 1 }), false);
});

test('every vocabulary entry, of every script, role and glyph, shares one hidden class with fast properties', () => {
  const entries = index.vocabulary.entries;
  assert.ok(entries.some((e) => e.glyph !== undefined) && entries.some((e) => e.role === 'legal_form') && entries.some((e) => e.script === 'abjad'));
  const [first] = entries;
  assert.ok(first);
  for (const entry of entries) {
    assert.ok(fastProperties(entry), `entry ${entry.text} is in dictionary mode`);
    assert.ok(sameClass(entry, first), `entry ${entry.text} (${entry.script}, ${entry.role}) has a class of its own`);
  }
});

test('query tokens share one hidden class, whether their words are on the lists or not', () => {
  const tokens = ['Vladimir Putin', 'Vladymyr Poutine', '김정은', 'Kim Jong-un', '习近平', 'Rosneft Trading SA'].flatMap((name) =>
    index.weigh(analyzeName(name, !name.startsWith('Rosneft'))),
  );
  const [first] = tokens;
  assert.ok(first);
  for (const token of tokens) assert.ok(sameClass(token, first), `query token ${token.text} has another class`);
});
