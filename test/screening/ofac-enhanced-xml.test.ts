import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { decodeText, detectFormat } from '../../src/screening/lists/list-format.ts';
import { ListFormatError } from '../../src/screening/lists/list-format-error.ts';
import { parseOfacEnhanced } from '../../src/screening/lists/ofac-enhanced-xml.ts';
import { parseOfacLegacy } from '../../src/screening/lists/ofac-legacy.ts';
import type { ListEntity } from '../../src/screening/model.ts';
import { listDataDir, skipWithoutListData } from '../helpers/list-data.ts';

const xml = fs.readFileSync(new URL('../fixtures/ofac-enhanced/SDN_ENHANCED.XML', import.meta.url));
const isListFormatError = (pattern: RegExp) => (e: unknown) => e instanceof ListFormatError && pattern.test(e.message);

describe('OFAC Enhanced XML, on a hand-written file in the SLS layout', () => {
  const { list, entities, warnings, publishedAt } = parseOfacEnhanced(xml, 'SDN_ENHANCED.XML');
  const [person, vessel, company] = entities;

  test('the SDN publication by its filter, dated by dataAsOf; ids are the ent_nums', () => {
    assert.deepEqual([list, publishedAt], ['OFAC_SDN', '2025-03-04']);
    assert.deepEqual(
      entities.map((e) => [e.entryId, e.type, e.programs]),
      [
        ['90001', 'person', ['RUSSIA-EO14024']],
        ['90002', 'vessel', ['DPRK3']],
        ['90003', 'organization', ['UKRAINE-EO13685', 'RUSSIA-EO14024']],
      ],
    );
  });

  test("names: OFAC's LAST, First with both parts, the Cyrillic translation, a low-quality a.k.a. and an f.k.a.", () => {
    assert.deepEqual(person?.names, [
      { full: 'EXAMPLOV, Ivan Petrovich', kind: 'primary', family: 'EXAMPLOV', given: 'Ivan Petrovich' },
      { full: 'ЭКЗАМПЛОВ, Иван Петрович', kind: 'original_script' },
      { full: 'VANYA', kind: 'weak_alias' },
      { full: 'EKZAMPLOV, Ivan', kind: 'former_name', family: 'EKZAMPLOV', given: 'Ivan' },
    ]);
  });

  test('dates of birth at the precision of their period: circa a year, a range of years, a month; the text when there is no period', () => {
    assert.deepEqual(person?.datesOfBirth, [
      { year: 1965, circa: true },
      { year: 1960, until: { year: 1962 } },
      { year: 1961, month: 2 },
      { year: 1963, month: 3, day: 12 },
    ]);
  });

  test('nationality and citizenship by ISO code, place of birth, gender, title, listing date, linked entity', () => {
    assert.deepEqual([person?.nationalities, person?.countries, person?.placesOfBirth], [['Russia', 'Belarus'], ['RU', 'BY'], ['Saint Petersburg, Russia']]);
    assert.deepEqual(
      [person?.gender, person?.title, person?.listedOn, person?.linkedTo],
      ['male', 'Director', { year: 2022, month: 3, day: 15 }, ['SAMPLE TRADING LLC']],
    );
  });

  test('identity documents with issuing country and validity; a label OFAC has no remark form for is kept as written', () => {
    assert.deepEqual(person?.identifiers, [
      { type: 'passport', value: '7101234567', country: 'RU', note: 'expires 2021-05-01; not valid' },
      { type: "Driver's License No.", value: '77 AB 123456', country: 'RU' },
    ]);
  });

  test('addresses as the legacy files write them: City Postal, and a region without a country in the country', () => {
    assert.deepEqual(
      person?.addresses,
      [{ street: '12 Sample Street', cityStatePostal: 'Moscow 101000', country: 'RU', countryName: 'Russia' }],
      'the empty address is left out',
    );
    assert.deepEqual(company?.addresses, [{ country: 'UA', countryName: 'Region: Crimea' }]);
  });

  test('a vessel: IMO and MMSI documents, call sign and flag features, recorded as the legacy parser records them', () => {
    assert.deepEqual(vessel?.identifiers, [
      { type: 'imo', value: '9187629' },
      { type: 'mmsi', value: '352001234' },
      { type: 'call_sign', value: 'HPAB7' },
      { type: 'vessel_flag', value: 'Panama', country: 'PA' },
    ]);
    assert.deepEqual(company?.identifiers, [
      { type: 'registration_number', value: '1027700000001', country: 'RU' },
      { type: 'swift_bic', value: 'SMPLRU2S' },
    ]);
  });

  test('features screening does not use are counted in a warning', () => {
    assert.deepEqual(warnings, ['2 features of 2 kinds screening does not use were left out (Website 1, VESSEL TYPE 1)']);
  });

  test("OFAC's ZIP is recognised by its member and read like the XML it holds", () => {
    const zip = zipSync({ 'SDN_ENHANCED.XML': xml });
    assert.equal(detectFormat('download.bin', zip.subarray(0, 8192)), 'ofac-enhanced-xml');
    assert.equal(detectFormat('SDN_ENHANCED.XML', xml.subarray(0, 8192)), 'ofac-enhanced-xml');
    assert.deepEqual(parseOfacEnhanced(zip, 'SDN_ENHANCED.ZIP'), parseOfacEnhanced(xml, 'SDN_ENHANCED.XML'));
    assert.throws(
      () => parseOfacEnhanced(zipSync({ 'readme.txt': strToU8('hello') }), 'x.zip'),
      isListFormatError(/The ZIP holds no …_ENHANCED\.XML \(it holds readme\.txt\)/),
    );
  });

  test('without a filter the list comes from the file name, else from the entities all being on the SDN List', () => {
    const unfiltered = decodeText(xml).replace(/<filters>[\s\S]*?<\/filters>/, '');
    assert.equal(parseOfacEnhanced(strToU8(unfiltered), 'CONS_ENHANCED.XML').list, 'OFAC_CONS');
    assert.equal(parseOfacEnhanced(strToU8(unfiltered), 'list.xml').list, 'OFAC_SDN');
    const oneNotOnSdn = unfiltered.replace('datePublished="2014-12-19">SDN List', 'datePublished="2014-12-19">Sectoral Sanctions Identifications List');
    assert.equal(parseOfacEnhanced(strToU8(oneNotOnSdn), 'list.xml').list, 'OFAC_CONS');
  });

  test('refuses another root element and a truncated file, saying where', () => {
    assert.throws(
      () => parseOfacEnhanced(strToU8('<?xml version="1.0"?><sdnList></sdnList>'), 'x.xml'),
      isListFormatError(/root element is not sanctionsData/),
    );
    assert.throws(() => parseOfacEnhanced(xml.subarray(0, xml.length / 2), 'x.xml'), isListFormatError(/malformed or truncated at line \d+/));
  });
});

describe('OFAC Enhanced XML, on the real consolidated list of 2025-01', { skip: skipWithoutListData() }, () => {
  const zip = fs.readFileSync(`${listDataDir()}/ofac_cons_enhanced_xml_2025-01/CONS_ENHANCED.ZIP`);
  const reading = parseOfacEnhanced(zip, 'CONS_ENHANCED.ZIP');
  const { entities } = reading;

  test('443 entities (363 entities, 80 individuals) of the consolidated list, as of 2025-01-10; the unzipped XML reads the same', () => {
    const count = (type: string) => entities.filter((e) => e.type === type).length;
    assert.deepEqual([reading.list, reading.publishedAt, entities.length, count('organization'), count('person')], ['OFAC_CONS', '2025-01-10', 443, 363, 80]);
    const unzipped = unzipSync(new Uint8Array(zip))['CONS_ENHANCED.XML'] as Uint8Array;
    assert.equal(parseOfacEnhanced(unzipped, 'CONS_ENHANCED.XML').entities.length, 443);
    assert.equal(entities.flatMap((e) => e.names).filter((n) => n.kind === 'original_script').length, 45, 'Cyrillic and Chinese translations');
    assert.match(reading.warnings[0] ?? '', /^1,716 features of 27 kinds screening does not use were left out \(Secondary sanctions risk 360, /);
  });

  describe('against the legacy CSV of the same list a year later (2025-12)', () => {
    const folder = `${listDataDir()}/ofac_cons_2025-12`;
    const read = (file: string) => decodeText(fs.readFileSync(`${folder}/${file}`));
    const legacy = parseOfacLegacy('OFAC_CONS', {
      main: read('cons_prim.csv'),
      addresses: read('cons_add.csv'),
      aliases: read('cons_alt.csv'),
      comments: read('cons_comments.csv'),
    }).entities;
    const csv = new Map(legacy.map((e) => [e.entryId, e]));
    const both = entities.filter((e) => csv.has(e.entryId));
    const pairs = both.map((e) => [e, csv.get(e.entryId) as ListEntity] as const);

    test('entry ids agree: a switch of format removes and adds nothing but what OFAC changed in the year', () => {
      assert.equal(both.length, 442, 'every entry of the CSV is in the XML');
      assert.deepEqual(
        entities.filter((e) => !csv.has(e.entryId)).map((e) => e.entryId),
        ['26182'],
        'delisted during 2025',
      );
    });

    test('primary names agree but for one OFAC renamed', () => {
      const renamed = pairs.filter(([x, c]) => x.names[0]?.full !== c.names[0]?.full).map(([x, c]) => [x.entryId, x.names[0]?.full, c.names[0]?.full]);
      assert.deepEqual(renamed, [['18284', 'RN-KOMSOMOLSKY REFINERY LLC', 'RN KOMSOMOLSKIY REFINERY LLC']]);
      assert.deepEqual(
        pairs.filter(([x, c]) => JSON.stringify(x.countries) !== JSON.stringify(c.countries)),
        [],
        'countries agree for all 442',
      );
    });

    test('dates of birth come from fields in the XML, from remarks in the CSV, and agree for every entity', () => {
      assert.equal(both.filter((e) => e.datesOfBirth.length > 0).length, 74);
      assert.equal(entities.filter((e) => /\bDOB\b/.test(e.remarks ?? '')).length, 0, 'no XML remark holds a date of birth');
      assert.equal(legacy.filter((e) => /\bDOB\b/.test(e.remarks ?? '')).length, 74, 'the CSV states them only in remarks');
      assert.deepEqual(
        pairs.filter(([x, c]) => JSON.stringify(x.datesOfBirth) !== JSON.stringify(c.datesOfBirth)),
        [],
      );
    });

    test('identifiers come from identity documents in the XML, and agree with the remarks for all but what changed in the year', () => {
      const key = (e: ListEntity) => JSON.stringify(e.identifiers.map((i) => `${i.type} ${i.value}`).sort());
      assert.equal(both.filter((e) => e.identifiers.length > 0).length, 328);
      assert.equal(both.flatMap((e) => e.identifiers).filter((i) => i.country).length, 335, 'issuing countries from the documents');
      assert.equal(pairs.filter(([x, c]) => key(x) === key(c)).length, 428);
    });
  });
});
