import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { ListFormatError } from '../../src/screening/lists/list-format-error.ts';
import { parseOfacLegacy } from '../../src/screening/lists/ofac-legacy.ts';
import { parseDateOfBirth } from '../../src/screening/lists/ofac-remarks.ts';
import { readListFile, skipWithoutListData } from '../helpers/list-data.ts';

const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/ofac/${name}`, import.meta.url), 'latin1');
const fixtureFiles = () => ({ main: fixture('sdn.csv'), addresses: fixture('add.csv'), aliases: fixture('alt.csv'), comments: fixture('sdn_comments.csv') });

describe('OFAC legacy CSV, on hand-written fixtures', () => {
  const { entities, orphans } = parseOfacLegacy('OFAC_SDN', fixtureFiles());
  const person = entities.find((e) => e.entryId === '10001');
  const company = entities.find((e) => e.entryId === '10002');
  const vessel = entities.find((e) => e.entryId === '10003');

  test('reads every record, types them, and ignores the trailing Ctrl-Z', () => {
    assert.deepEqual(
      entities.map((e) => [e.entryId, e.type]),
      [
        ['10001', 'person'],
        ['10002', 'organization'],
        ['10003', 'vessel'],
      ],
    );
  });

  test('splits LAST, First names of people, and not of companies', () => {
    assert.deepEqual(person?.names[0], { full: "ABU-'ALI, Karim Yusuf", kind: 'primary', family: "ABU-'ALI", given: 'Karim Yusuf' });
    assert.deepEqual(company?.names[0], { full: 'EXAMPLE TRADING CO., LTD.', kind: 'primary' });
  });

  test('joins aliases by kind, and takes weak a.k.a.s from Remarks, apostrophes included', () => {
    assert.deepEqual(
      person?.names.slice(1).map((n) => [n.full, n.kind]),
      [
        ['ALI, Karim', 'strong_alias'],
        ["ABU-'UMAR", 'weak_alias'],
        ['THE ENGINEER', 'weak_alias'],
      ],
    );
    assert.deepEqual(
      company?.names.slice(1).map((n) => [n.full, n.kind]),
      [
        ['EXAMPLE IMPORTS LLC', 'former_name'],
        ['EXAMPLE GLOBAL', 'strong_alias'],
        ['EXTRA', 'weak_alias'],
      ],
    );
  });

  test('splits programs joined by "] ["', () => {
    assert.deepEqual(person?.programs, ['SDGT', 'IRGC']);
  });

  test('reads the facts in Remarks, with the overflow from the comments file', () => {
    assert.deepEqual(person?.datesOfBirth, [
      { year: 1961, month: 2, day: 12 },
      { year: 1963, circa: true },
    ]);
    assert.deepEqual(person?.placesOfBirth, ['Tehran, Iran']);
    assert.deepEqual(person?.nationalities, ['Iran', 'Lebanon']);
    assert.equal(person?.gender, 'male');
    assert.deepEqual(person?.linkedTo, ['EXAMPLE TRADING CO., LTD.']);
    assert.deepEqual(person?.identifiers, [
      { type: 'passport', value: 'A1234567', country: 'IR', note: 'expires 31 Dec 2026' },
      { type: 'national_id', value: '0012345', country: 'LB' },
      { type: 'tax_id', value: '998877', country: 'LB' },
    ]);
    assert.match(String(person?.remarks), /continues in the comments file; Tax ID/);
    assert.equal(person?.title, 'Commander');
  });

  test('maps address, nationality and citizenship countries to ISO codes', () => {
    assert.deepEqual(person?.countries, ['IR', 'LB']);
    assert.deepEqual(company?.countries, ['KP']);
  });

  test('keeps what a vessel is known by', () => {
    assert.deepEqual(vessel?.identifiers, [
      { type: 'imo', value: '9187629' },
      { type: 'call_sign', value: '9BXX1' },
      { type: 'vessel_flag', value: 'Panama', country: 'PA' },
    ]);
  });

  test('drops side-file rows for entries not in the main file, and counts them', () => {
    assert.deepEqual(orphans, { addresses: 1, aliases: 0, comments: 0 });
  });

  test('refuses a truncated or malformed file, naming what is wrong', () => {
    const main = fixture('sdn.csv');
    assert.throws(() => parseOfacLegacy('OFAC_SDN', { main: main.slice(0, main.indexOf('Passport')) }), /truncated or malformed/);
    assert.throws(
      () => parseOfacLegacy('OFAC_SDN', { main: main.replace('10002,', '10002,"extra",') }),
      (e: Error) => e instanceof ListFormatError && /record 2 has 13 fields/.test(e.message),
    );
    assert.throws(() => parseOfacLegacy('OFAC_SDN', { main: '' }), /no entries/);
    assert.throws(() => parseOfacLegacy('OFAC_SDN', { main: '<html>Service Unavailable</html>\r\n' }), ListFormatError);
  });
});

describe('dates of birth as OFAC writes them', () => {
  test('day, month, year, circa and ranges keep their precision', () => {
    assert.deepEqual(parseDateOfBirth('12 Feb 1961'), { year: 1961, month: 2, day: 12 });
    assert.deepEqual(parseDateOfBirth('Feb 1961'), { year: 1961, month: 2 });
    assert.deepEqual(parseDateOfBirth('1961'), { year: 1961 });
    assert.deepEqual(parseDateOfBirth('circa 1965'), { year: 1965, circa: true });
    assert.deepEqual(parseDateOfBirth('1960 to 1962'), { year: 1960, until: { year: 1962 } });
    assert.equal(parseDateOfBirth('sometime'), undefined);
  });
});

/** The four files of one OFAC list, read from the real data folder. */
const realFiles = (main: string, addresses: string, aliases: string, comments: string) => ({
  main: readListFile(main),
  addresses: readListFile(addresses),
  aliases: readListFile(aliases),
  comments: readListFile(comments),
});

describe('OFAC legacy CSV, on the real files', { skip: skipWithoutListData() }, () => {
  test('the SDN list of 2024-05 with the 2025-01 side files: the counts SOURCES.md publishes', () => {
    const { entities, orphans } = parseOfacLegacy(
      'OFAC_SDN',
      realFiles('ofac_sdn_2024-05/sdn.csv', 'ofac_sdn_2025-01/add.csv', 'ofac_sdn_2025-01/alt.csv', 'ofac_sdn_2025-01/sdn_comments.csv'),
    );
    const count = (predicate: (e: (typeof entities)[number]) => boolean) => entities.filter(predicate).length;
    assert.equal(entities.length, 14_965);
    assert.deepEqual(
      ['person', 'organization', 'vessel', 'aircraft'].map((type) => count((e) => e.type === type)),
      [6_854, 6_884, 851, 376],
    );
    assert.equal(
      count((e) => e.programs.length > 1),
      1_685,
    );
    assert.equal(
      count((e) => /\bDOB /.test(e.remarks ?? '')),
      6_736,
    );
    assert.equal(
      count((e) => e.datesOfBirth.length > 0),
      6_736,
      'every DOB remark is understood',
    );
    assert.equal(orphans.addresses, 2_111, 'designations newer than the main file');
    // Every country name maps to ISO 3166-1 but disputed or defunct regions and "undetermined".
    const unmapped = new Set(entities.flatMap((e) => e.unmappedCountries));
    assert.deepEqual([...unmapped].sort(), [
      'Netherlands Antilles',
      'Region: Commonwealth of Independent States',
      'Region: Kafia Kingi',
      'possibly Palestinian',
      'undetermined',
    ]);
  });

  test('weak a.k.a.s: all 3,578 in the 2024-05 file but the 3 cut off by the 1,000-character Remarks limit', () => {
    const { entities } = parseOfacLegacy('OFAC_SDN', { main: readListFile('ofac_sdn_2024-05/sdn.csv') });
    const weak = entities.flatMap((e) => e.names.filter((n) => n.kind === 'weak_alias'));
    assert.equal(entities.filter((e) => e.names.some((n) => n.kind === 'weak_alias')).length, 2_067);
    assert.equal(weak.length, 3_575);
    assert.ok(
      weak.every((n) => !n.full.includes('; a.k.a.')),
      'no alias swallows the next one',
    );
  });

  test('the 2023-05 file, a year earlier, parses too', () => {
    assert.equal(parseOfacLegacy('OFAC_SDN', { main: readListFile('ofac_sdn_2024-05/history/2023-05-02/sdn.csv') }).entities.length, 12_211);
  });

  test('the non-SDN consolidated list of 2025-12, all four files', () => {
    const { entities, orphans } = parseOfacLegacy(
      'OFAC_CONS',
      realFiles('ofac_cons_2025-12/cons_prim.csv', 'ofac_cons_2025-12/cons_add.csv', 'ofac_cons_2025-12/cons_alt.csv', 'ofac_cons_2025-12/cons_comments.csv'),
    );
    assert.equal(entities.length, 442);
    assert.deepEqual([entities.filter((e) => e.type === 'organization').length, entities.filter((e) => e.type === 'person').length], [363, 79]);
    assert.deepEqual(orphans, { addresses: 0, aliases: 0, comments: 0 });
    assert.ok(entities.some((e) => e.programs.includes('UKRAINE-EO13662')));
  });
});
