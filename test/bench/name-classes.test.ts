import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { splitBracket, withAcronym } from '../../bench/matching/name-classes/brackets.ts';
import { capped, sameNameAs } from '../../bench/matching/name-classes/class-case.ts';
import { commonWordsOnly } from '../../bench/matching/name-classes/clean-queries.ts';
import { dayMonthSwapped, yearOff } from '../../bench/matching/name-classes/dates-of-birth.ts';
import { digitsForLetters } from '../../bench/matching/name-classes/digits-for-letters.ts';
import { designationsDropped, industryWordSwapped } from '../../bench/matching/name-classes/everyday-names.ts';
import { hanjaReading, inHangul, inHanja, koreanSyllables, romanizations } from '../../bench/matching/name-classes/korean-scripts.ts';
import { legalFormInTheMiddle, legalFormMoved, legalFormTranslated } from '../../bench/matching/name-classes/legal-forms.ts';
import { buildOrgVocabulary } from '../../bench/matching/name-classes/org-vocabulary.ts';
import { withExtraGivenName, withExtraNamePart, withSuffixOrHonorific } from '../../bench/matching/name-classes/person-additions.ts';
import { readUnitTestNames } from '../../bench/matching/name-classes/unit-test-names.ts';
import { emptyEntity, type ListEntity } from '../../src/screening/model.ts';
import { listDataDir, skipWithoutListData } from '../helpers/list-data.ts';

// Made-up names only: set (f) leaves out every list entry a test names.
const person = (full: string, fields: Partial<ListEntity> = {}) =>
  emptyEntity({ list: 'TEST', entryId: full, type: 'person', names: [{ full, kind: 'primary' }], ...fields });
const organization = (full: string) => emptyEntity({ list: 'TEST', entryId: full, type: 'organization', names: [{ full, kind: 'primary' }] });

describe('digits for letters', () => {
  test('is repeatable and puts one or two look-alike digits where letters were', () => {
    const name = 'Gorvalo Selbiton';
    const changed = digitsForLetters(name) as string;
    assert.equal(digitsForLetters(name), changed);
    assert.equal(changed.length, name.length);
    const differences = [...name].map((c, i) => [c, changed[i]] as const).filter(([a, b]) => a !== b);
    assert.ok(differences.length === 1 || differences.length === 2, changed);
    const lookAlike: Record<string, string> = { o: '0', i: '1', l: '1', e: '3', s: '5', a: '4', b: '8', g: '9' };
    for (const [letter, digit] of differences) assert.equal(lookAlike[letter.toLowerCase()], digit);
  });

  test("reaches a word's first and last letters too, and leaves a name without such letters alone", () => {
    const positions = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const name = `Orvo Kumt${i}`;
      const changed = digitsForLetters(name) as string;
      if (changed[0] !== name[0]) positions.add('first');
      if (changed.split(' ')[0]?.at(-1) !== name.split(' ')[0]?.at(-1)) positions.add('last');
    }
    assert.deepEqual([...positions].sort(), ['first', 'last']);
    assert.equal(digitsForLetters('Muryk Zhunt'), undefined);
  });
});

describe('Korean names in Hangul and Hanja', () => {
  const name = 'MUN Hyok Chol';

  test('a romanized name reads as its syllables, run-together given names split', () => {
    assert.deepEqual(koreanSyllables(name), ['mun', 'hyok', 'chol']);
    assert.deepEqual(koreanSyllables('MUN Hyokchol'), ['mun', 'hyok', 'chol']);
    assert.equal(koreanSyllables('Leonard Smith'), undefined);
  });

  test('every Hanja written reads back, as a family name first, to the syllable it was chosen for', () => {
    const hanja = inHanja(name) as string;
    assert.equal(inHanja(name), hanja);
    const glyphs = [...hanja];
    assert.equal(glyphs.length, 3);
    assert.ok(
      glyphs.every((g) => /\p{Script=Han}/u.test(g)),
      hanja,
    );
    glyphs.forEach((glyph, i) => {
      const reading = hanjaReading(glyph, i === 0) as string;
      assert.ok(romanizations(reading, i === 0).includes(['mun', 'hyok', 'chol'][i] as string), `${glyph} reads ${reading}`);
    });
  });

  test('a family name read as a surname: KIM is 金, which reads 김 only as a name', () => {
    assert.equal([...(inHanja('KIM Pyol Sam') as string)][0], '金');
    assert.equal(hanjaReading('金', true), '김');
  });

  test('Hangul syllables romanize back to the listed ones', () => {
    const hangul = [...(inHangul(name) as string)];
    assert.equal(hangul.length, 3);
    hangul.forEach((syllable, i) => assert.ok(romanizations(syllable, i === 0).includes(['mun', 'hyok', 'chol'][i] as string), syllable));
  });
});

describe('people with something the listing does not carry', () => {
  test('a suffix at the end or an honorific at the start, Mr never for a woman', () => {
    const suffixes = /(?:,? (?:Jr|Jr\.|Sr\.|II|III|IV))$/;
    const titles = /^(?:Dr\.|Mr|Mrs|Prof\.|Gen\.) /;
    for (let i = 0; i < 50; i++) {
      const name = `Velora Tanquist${i}`;
      const changed = withSuffixOrHonorific(name, 'female') as string;
      assert.ok(suffixes.test(changed) !== titles.test(changed), changed);
      assert.equal(changed.replace(suffixes, '').replace(titles, ''), name);
      assert.ok(!changed.startsWith('Mr '), changed);
    }
  });

  test('an extra given name comes from someone else, after the first word', () => {
    const pool = [
      { owner: 'TEST:self', name: 'Ownname' },
      { owner: 'TEST:other', name: 'Borrowed' },
    ];
    for (let i = 0; i < 20; i++) {
      const changed = withExtraGivenName(`Arvid Quelling${i}`, 'TEST:self', pool);
      assert.equal(changed, `Arvid Borrowed Quelling${i}`);
    }
    assert.equal(withExtraGivenName('Arvid', 'TEST:self', pool), undefined);
  });

  test('a long Arabic-style name gets one more link in its chain of ancestors', () => {
    const pool = [{ owner: 'TEST:other', name: 'Zahir' }];
    assert.equal(withExtraNamePart('Halim bin Qasar al-Tarwi', 'TEST:self', pool), 'Halim bin Qasar bin Zahir al-Tarwi');
    assert.equal(withExtraNamePart('Halim Tarwi', 'TEST:self', pool), undefined);
  });
});

describe('dates of birth as data entry gets them wrong', () => {
  const listed = { year: 1970, month: 3, day: 9 };

  test('a year off by one or two never lands on a year the listing also gives', () => {
    const entity = person('Dorran Feliks', { datesOfBirth: [listed, { year: 1971 }] });
    assert.equal(yearOff(entity, listed, 1)?.year, 1969);
    assert.deepEqual({ ...yearOff(entity, listed, 2), year: 0 }, { ...listed, year: 0 });
    assert.equal(Math.abs((yearOff(entity, listed, 2)?.year as number) - 1970), 2);
  });

  test('day and month swap only when the day could be a month and differs from it', () => {
    const entity = person('Dorran Feliks', { datesOfBirth: [listed] });
    assert.deepEqual(dayMonthSwapped(entity, listed), { year: 1970, month: 9, day: 3 });
    assert.equal(dayMonthSwapped(entity, { year: 1970, month: 3, day: 23 }), undefined);
    assert.equal(dayMonthSwapped(entity, { year: 1970, month: 3, day: 3 }), undefined);
  });
});

describe("organizations' names", () => {
  test('a bracketed part splits off, and an acronym is the initials of the words', () => {
    assert.deepEqual(splitBracket('Varnok Quillen Holdings (VQH) Ltd'), { outside: 'Varnok Quillen Holdings Ltd', inside: 'VQH', after: 'Ltd' });
    assert.equal(splitBracket('Varnok (A) (B)'), undefined);
  });

  test('a legal form translated keeps its place and changes language', () => {
    const translated = legalFormTranslated('Zelvino Trading LLC') as string;
    assert.ok(
      ['Zelvino Trading OOO', 'Zelvino Trading Limited Liability Company', 'Zelvino Trading Obshchestvo s Ogranichennoy Otvetstvennostyu'].includes(translated),
      translated,
    );
    assert.equal(legalFormTranslated('Zelvino Trading'), undefined);
  });

  test("the hold-out takes a listed name the query repeats, in a person's either order, an organization's own order", () => {
    assert.ok(sameNameAs('Dorran Feliks', person('FELIKS, Dorran'))({ full: 'FELIKS, Dorran', kind: 'primary' }));
    assert.ok(!sameNameAs('LLC Zelvino', organization('Zelvino, LLC'))({ full: 'Zelvino, LLC', kind: 'primary' }));
    assert.ok(sameNameAs('Zelvino LLC', organization('Zelvino, LLC'))({ full: 'ZELVINO, L.L.C.', kind: 'primary' }));
  });

  test('with the designation tables', (t) => {
    const skip = skipWithoutListData();
    if (skip) return t.skip(skip);
    const vocabulary = buildOrgVocabulary(listDataDir(), []);
    assert.equal(designationsDropped(vocabulary, 'Federal State Unitary Enterprise Zelvino Plant'), 'Zelvino Plant');
    assert.equal(designationsDropped(vocabulary, 'Zelvino'), undefined);
    assert.ok(['ZELVINO AIRLINES', 'ZELVINO AIRLINE', 'ZELVINO AIRWAYS'].includes(industryWordSwapped(vocabulary, 'ZELVINO AIR LLC') as string));
    assert.ok(['ZELVINO AIRLINE', 'ZELVINO AIRWAYS', 'ZELVINO AIR'].includes(industryWordSwapped(vocabulary, 'ZELVINO AIRLINES') as string));
    assert.equal(legalFormMoved(vocabulary, 'Zelvino Trading LLC'), 'LLC Zelvino Trading');
    assert.equal(legalFormMoved(vocabulary, 'Joint Stock Company Zelvino'), 'Zelvino Joint Stock Company');
    assert.equal(legalFormInTheMiddle(vocabulary, 'OOO Zelvino Trading'), 'Zelvino OOO Trading');
    assert.equal(withAcronym(vocabulary, 'Varnok Quillen Holdings of Tarsk LLC'), 'Varnok Quillen Holdings of Tarsk LLC (VQT)');
    assert.equal(withAcronym(vocabulary, 'Q R Z S.A.'), undefined);
  });

  test('common-word queries use only common words, and never the words of a listed name', (t) => {
    const skip = skipWithoutListData();
    if (skip) return t.skip(skip);
    const listed = [organization('Industry Solutions'), organization('Zelvino Industries Trading'), organization('Varnok Solutions Trading LLC')];
    const vocabulary = buildOrgVocabulary(listDataDir(), listed);
    assert.deepEqual([...vocabulary.commonWords].sort(), ['industries', 'industry', 'solutions', 'trading']);
    const queries = commonWordsOnly(vocabulary, listed, 30).cases.map((c) => c.query.name.toLowerCase());
    assert.ok(queries.length > 0);
    for (const query of queries) {
      const words = query.split(' ').filter((w) => vocabulary.commonWords.includes(w));
      assert.ok(words.length >= 1 && words.length <= 2, query);
      // Industries Solutions is the listed Industry Solutions with another ending: it names that company.
      assert.ok(!(words.includes('solutions') && words.some((w) => w.startsWith('industr'))), query);
    }
  });
});

describe("the sample and the unit tests' names", () => {
  test('a capped variant keeps the same rows, whatever order they came in', () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({ key: `TEST:${i}` }));
    const kept = capped(rows, 10).map((r) => r.key);
    assert.equal(kept.length, 10);
    assert.deepEqual(
      capped([...rows].reverse(), 10).map((r) => r.key),
      kept,
    );
  });

  test('an entry a test names, in either order, is left out; a single word only when it is the whole string', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unit-test-names-'));
    fs.writeFileSync(path.join(dir, 'a.test.ts'), `screen({ name: "Dorran Feliks Quorm" }); const org = 'Zelvino'; const s = \`the Tarsk Holdings case\`;`);
    const names = readUnitTestNames(dir);
    assert.ok(names.has(person('QUORM, Dorran Feliks')));
    assert.ok(names.has(person('Feliks Quorm')));
    assert.ok(names.has(organization('ZELVINO')));
    assert.ok(names.has(organization('Tarsk Holdings')));
    assert.ok(!names.has(organization('Tarsk')));
    assert.ok(!names.has(person('Dorran Velk')));
    fs.rmSync(dir, { recursive: true });
  });
});
