import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { ListFormatError } from '../../src/screening/lists/list-format-error.ts';
import { parseUnSc } from '../../src/screening/lists/un-sc.ts';
import type { ListEntity } from '../../src/screening/model.ts';
import { listDataDir, skipWithoutListData } from '../helpers/list-data.ts';

const fixture = fs.readFileSync(new URL('../fixtures/un/consolidated.xml', import.meta.url), 'utf8');

describe('UN Security Council XML, on a hand-written fixture', () => {
  const { entities, publishedAt } = parseUnSc(fixture);
  const [ahmad, joseph, company] = entities as [ListEntity, ListEntity, ListEntity];

  test('reads individuals then entities, ids from REFERENCE_NUMBER, the date from dateGenerated', () => {
    assert.deepEqual(
      entities.map((e) => [e.entryId, e.type, e.programs]),
      [
        ['QDi.900', 'person', ['Al-Qaida']],
        ['CDi.900', 'person', ['DRC']],
        ['KPe.900', 'organization', ['DPRK']],
      ],
    );
    assert.equal(publishedAt, '2026-01-15');
  });

  test('names: parts joined in the given order, original script, aliases by quality, empty aliases skipped', () => {
    assert.deepEqual(ahmad.names, [
      { full: 'AHMAD KARIM AL-EXAMPLE', kind: 'primary' },
      { full: 'أحمد كريم المثال', kind: 'original_script' },
      { full: 'Abu Karim', kind: 'strong_alias' },
      { full: 'The Accountant', kind: 'weak_alias' },
      { full: 'Ahmed Kareem', kind: 'strong_alias' },
    ]);
    assert.deepEqual(joseph.names, [{ full: 'JOSEPH SAMPLE', kind: 'primary' }]);
    assert.deepEqual(
      company.names.map((n) => [n.full, n.kind]),
      [
        ['EXAMPLE TRADING COMPANY', 'primary'],
        ['조선예시무역회사', 'original_script'],
        ['Choson Example Trading', 'strong_alias'],
        ['Old Example Corporation', 'former_name'],
      ],
    );
  });

  test('dates of birth keep their precision: exact date, year, circa, a range; an alias date is added', () => {
    assert.deepEqual(ahmad.datesOfBirth, [
      { year: 1970, month: 6, day: 1 },
      { year: 1969, circa: true },
      { year: 1971, month: 6, day: 2 },
    ]);
    assert.deepEqual(joseph.datesOfBirth, [{ year: 1973, until: { year: 1974 } }, { year: 1975 }]);
  });

  test('countries from nationality and addresses in ISO codes (UN formal names mapped), documents as identifiers', () => {
    assert.deepEqual(ahmad.countries, ['IQ', 'IR']);
    assert.deepEqual(ahmad.nationalities, ['Iran (Islamic Republic of)', 'Iraq']);
    assert.deepEqual(joseph.countries, ['CD']);
    assert.deepEqual(company.countries, ['KP']);
    assert.deepEqual(ahmad.addresses, [{ street: '12 Example Road', cityStatePostal: 'Basra', country: 'IQ', countryName: 'Iraq' }]);
    assert.deepEqual(joseph.addresses, [], 'an address with nothing in it is no address');
    assert.deepEqual(ahmad.identifiers, [{ type: 'Passport', value: 'A0012345', country: 'IQ', note: 'Expired 2010' }]);
    assert.deepEqual(ahmad.placesOfBirth, ['Basra, Iraq']);
  });

  test('gender, title and designation, remarks with character references, listing date', () => {
    assert.equal(ahmad.gender, 'male');
    assert.equal(joseph.gender, undefined);
    assert.equal(ahmad.title, 'Mullah; Finance officer');
    assert.equal(ahmad.remarks, "Father's name is Karim. Invented entry & test data.");
    assert.equal(company.remarks, undefined);
    assert.deepEqual(ahmad.listedOn, { year: 2005, month: 3, day: 7 });
  });

  test('refuses a truncated file, another XML and an empty list', () => {
    const truncated = fixture.slice(0, Math.floor(fixture.length / 2));
    assert.throws(
      () => parseUnSc(truncated),
      (e: Error) => e instanceof ListFormatError && /malformed or truncated at line \d+/.test(e.message),
    );
    assert.throws(() => parseUnSc('<?xml version="1.0"?><sdnList><sdnEntry/></sdnList>'), /root element is not CONSOLIDATED_LIST/);
    assert.throws(
      () => parseUnSc('<CONSOLIDATED_LIST dateGenerated="2026-01-01"><INDIVIDUALS/><ENTITIES/></CONSOLIDATED_LIST>'),
      /no individuals and no entities/,
    );
  });
});

describe('UN Security Council XML, on the real 2026-02 file', { skip: skipWithoutListData() }, () => {
  const { entities, publishedAt } = parseUnSc(fs.readFileSync(`${listDataDir()}/un_sc_2026-02/consolidated.xml`, 'utf8'));
  const count = (type: string, kind: string) =>
    entities
      .filter((e) => e.type === type)
      .flatMap((e) => e.names)
      .filter((n) => n.kind === kind).length;

  test('730 individuals and 273 entities, published 2026-02-27, every id unique', () => {
    assert.equal(entities.filter((e) => e.type === 'person').length, 730);
    assert.equal(entities.filter((e) => e.type === 'organization').length, 273);
    assert.equal(new Set(entities.map((e) => e.entryId)).size, 1_003);
    assert.equal(publishedAt, '2026-02-27');
  });

  test('names come out on one line: the XML wraps and indents some, and a line break is no part of a name', () => {
    const wrapped = entities.flatMap((e) => e.names).filter((n) => /\s{2,}|[\n\r\t]/.test(n.full) || n.full !== n.full.trim());
    assert.deepEqual(wrapped, []);
  });

  test('336 + 42 original-script names; aliases by quality (10 Good aliases repeat a name and are dropped)', () => {
    assert.equal(count('person', 'original_script'), 336);
    assert.equal(count('organization', 'original_script'), 42);
    assert.equal(count('person', 'strong_alias'), 1_524 - 10);
    assert.equal(count('person', 'weak_alias'), 615);
    assert.equal(count('organization', 'strong_alias'), 594);
    assert.equal(count('organization', 'former_name'), 18);
  });

  test('a date of birth of each precision', () => {
    const byId = (id: string) => entities.find((e) => e.entryId === id);
    assert.deepEqual(byId('QDi.001')?.datesOfBirth[0], { year: 1963, month: 4, day: 11 });
    assert.deepEqual(byId('CDi.001')?.datesOfBirth, [{ year: 1971 }]);
    const dobs = entities.flatMap((e) => e.datesOfBirth);
    assert.equal(dobs.filter((d) => d.until).length, 31);
    assert.equal(dobs.filter((d) => d.circa).length, 116);
  });

  test('every country name maps to an ISO code but the defunct "former Soviet Union"', () => {
    assert.deepEqual([...new Set(entities.flatMap((e) => e.unmappedCountries))], ['former Soviet Union']);
  });
});
