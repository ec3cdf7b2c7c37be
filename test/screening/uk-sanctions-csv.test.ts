import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { decodeText, detectFormat } from '../../src/screening/lists/list-format.ts';
import { ListFormatError } from '../../src/screening/lists/list-format-error.ts';
import { parseUkSanctionsCsv } from '../../src/screening/lists/uk-sanctions-csv.ts';

const bytes = fs.readFileSync(new URL('../fixtures/uk/UK-Sanctions-List.csv', import.meta.url));
const text = decodeText(bytes);
const isListFormatError = (pattern: RegExp) => (e: unknown) => e instanceof ListFormatError && pattern.test(e.message);

describe('UK Sanctions List CSV, on a hand-written file in the FCDO layout', () => {
  const { list, entities, warnings, publishedAt } = parseUkSanctionsCsv(text);
  const byId = (id: string) => entities.find((e) => e.entryId === id);

  test('is recognised by its report line and header, whatever its name; a byte-order mark is no obstacle', () => {
    assert.equal(bytes[0], 0xef, 'the fixture starts with a UTF-8 byte-order mark');
    assert.equal(detectFormat('download.csv', bytes.subarray(0, 8192)), 'uk-fcdo-csv');
    assert.equal(detectFormat('other.csv', Buffer.from('Report Date: 08-Oct-2026\r\nName,Country\r\n')), undefined);
  });

  test('rows sharing a Unique ID are one designation; the list is UK_FCDO, dated by the report line', () => {
    assert.equal(list, 'UK_FCDO');
    assert.equal(publishedAt, '2026-10-08');
    assert.deepEqual(
      entities.map((e) => [e.entryId, e.type]),
      [
        ['RUS9101', 'person'],
        ['AQD9102', 'organization'],
        ['DPR9103', 'vessel'],
        ['BEL9104', 'person'],
      ],
    );
  });

  test('a person: surname first as the FCDO writes it, the name in its own script, aliases by strength', () => {
    assert.deepEqual(byId('RUS9101')?.names, [
      { full: 'EXAMPLOV Ivan Petrovich', kind: 'primary', family: 'EXAMPLOV', given: 'Ivan Petrovich' },
      { full: 'ЭКЗАМПЛОВ Иван Петрович', kind: 'original_script' },
      { full: 'EKZAMPLOV Ivan', kind: 'strong_alias', family: 'EKZAMPLOV', given: 'Ivan' },
      { full: 'VANYA', kind: 'weak_alias' },
    ]);
  });

  test('a person: dates of birth with unknown parts, nationalities, birthplace, documents with their notes', () => {
    const person = byId('RUS9101');
    assert.deepEqual(person?.datesOfBirth, [{ year: 1965, month: 3, day: 12 }, { year: 1968 }]);
    assert.deepEqual([person?.nationalities, person?.countries, person?.placesOfBirth], [['Russia', 'Belarus'], ['RU', 'BY'], ['Saint Petersburg, Russia']]);
    assert.deepEqual(person?.identifiers, [
      { type: 'passport', value: '7101234567', note: 'Russian passport' },
      { type: 'passport', value: 'AB1234567', note: 'Belarusian passport' },
      { type: 'national_id', value: '771234567890', note: 'INN' },
    ]);
    assert.deepEqual(
      [person?.gender, person?.title, person?.programs, person?.listedOn],
      ['male', 'Mr; Director, Sample Holding', ['Russia'], { year: 2022, month: 3, day: 15 }],
    );
  });

  test('addresses from the rows, each once; a quoted field keeps its comma and its line break', () => {
    assert.deepEqual(byId('RUS9101')?.addresses, [
      { street: '12 Sample Street, Office 4', cityStatePostal: 'Moscow, 101000', country: 'RU', countryName: 'Russia' },
      { street: 'Sample Avenue 7', cityStatePostal: 'Minsk', country: 'BY', countryName: 'Belarus' },
    ]);
    assert.equal(
      byId('RUS9101')?.remarks,
      'Designation source: UK; Sanctions imposed: Asset freeze, Travel Ban; OFSI group ID 90101; Invented for a test.\nA second line, with a comma.',
    );
  });

  test('an entity: its name in Name 6, registration numbers, parent company, UN reference; Designation Type wins over Type of entity', () => {
    const entity = byId('AQD9102');
    assert.deepEqual(entity?.names, [
      { full: 'SAMPLE RELIEF, AID & TRADE FOUNDATION', kind: 'primary' },
      { full: 'SRATF', kind: 'strong_alias' },
    ]);
    assert.deepEqual(entity?.identifiers, [
      { type: 'registration_number', value: 'REG-55501' },
      { type: 'registration_number', value: 'REG-55502' },
    ]);
    assert.deepEqual([entity?.linkedTo, entity?.countries], [['SAMPLE HOLDING'], ['PK']]);
    assert.match(entity?.remarks ?? '', /UN reference QDe\.999/);
  });

  test('a ship: IMO number, flag and owner', () => {
    const ship = byId('DPR9103');
    assert.deepEqual(ship?.identifiers, [
      { type: 'imo', value: '9187629' },
      { type: 'vessel_flag', value: 'Panama', country: 'PA' },
    ]);
    assert.deepEqual([ship?.names.map((n) => n.full), ship?.linkedTo], [['SAMPLE STAR', 'OLD STAR'], ['SAMPLE SHIPPING LTD']]);
  });

  test('what was guessed or dropped is said: a designation with aliases only, a date of birth that is no date', () => {
    assert.deepEqual(byId('BEL9104')?.names, [{ full: 'SAMPLOVICH Pavel', kind: 'primary', family: 'SAMPLOVICH', given: 'Pavel' }]);
    assert.deepEqual(byId('BEL9104')?.datesOfBirth, [{ year: 1970 }], 'dd/mm/1970 is a year');
    assert.deepEqual(warnings, [
      '1 designation has no primary name; the first alias is taken as the name: BEL9104',
      '1 date of birth is not a date and left out: BEL9104 "about 1971"',
    ]);
  });

  test('refuses another header naming the missing columns, a short record, and a row without Unique ID', () => {
    const [report, header, ...rest] = text.split('\r\n');
    const renamed = [report, header?.replace('Name 6,', 'Surname,').replace('IMO number,', 'IMO,'), ...rest].join('\r\n');
    assert.throws(() => parseUkSanctionsCsv(renamed), isListFormatError(/header \(line 2\) lacks the columns Name 6, IMO number$/));
    assert.throws(() => parseUkSanctionsCsv(`${report}\r\n${header}\r\nRUS1,X\r\n`), isListFormatError(/Record 3 has 2 fields, not 58/));
    const noId = `${report}\r\n${header}\r\n${(header ?? '')
      .split(',')
      .map(() => '')
      .join(',')}\r\n`;
    assert.throws(() => parseUkSanctionsCsv(noId), isListFormatError(/Record 3 has no Unique ID/));
  });
});
