import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { ListFormatError } from '../../src/screening/lists/list-format-error.ts';
import { readOdsSheets } from '../../src/screening/lists/ods.ts';
import { parseUkFcdo, publishedFromFileName } from '../../src/screening/lists/uk-fcdo.ts';
import { listDataDir, skipWithoutListData } from '../helpers/list-data.ts';

const content = fs.readFileSync(new URL('../fixtures/uk/content.xml', import.meta.url), 'utf8');
const ods = (xml: string, mimetype = 'application/vnd.oasis.opendocument.spreadsheet') =>
  zipSync({ mimetype: [strToU8(mimetype), { level: 0 }], 'content.xml': strToU8(xml) });
const isListFormatError = (pattern: RegExp) => (e: unknown) => e instanceof ListFormatError && pattern.test(e.message);

describe('ODS reader, on a hand-written sheet', () => {
  const [notes, list] = readOdsSheets(ods(content));

  test('reads every sheet by name; repeated cells expanded, trailing empty runs and empty rows dropped', () => {
    assert.deepEqual(notes, { name: 'Notes', rows: [['This sheet is not the list']] });
    assert.equal(list?.name, 'UK_Sanction_List');
    assert.equal(list?.rows.length, 5, 'the header and four designations; the million empty rows are not rows');
    assert.deepEqual(list?.rows[3], ['DPR9003', '90003', 'SAMPLE STAR', 'Ship', 'UK', 'UK', '01-02-2024', 'Ship specification']);
  });

  test('cell text: spaces, spans and character references; typed cells by their value', () => {
    assert.equal(list?.rows[1]?.[2], 'Examplov Ivan  Petrovich');
    assert.equal(list?.rows[2]?.[2], 'SAMPLE RELIEF & AID FOUNDATION');
    assert.equal(list?.rows[2]?.[1], '', 'an empty cell inside a row keeps its place');
    assert.equal(list?.rows[2]?.[6], '2004-06-28');
  });
});

describe('UK FCDO Sanctions List, on a hand-written spreadsheet', () => {
  const { list, entities, warnings } = parseUkFcdo(ods(content));

  test('finds the sheet by its header, columns by name; a designation without a name is left out with a warning', () => {
    assert.equal(list, 'UK_FCDO');
    assert.deepEqual(
      entities.map((e) => [e.entryId, e.type, e.programs]),
      [
        ['RUS9001', 'person', ['Russia']],
        ['AQD9002', 'organization', ["ISIL (Da'esh) and Al-Qaida"]],
        ['DPR9003', 'vessel', ['UK']],
      ],
    );
    assert.deepEqual(warnings, ['1 designation has no name and is left out: BEL9004']);
  });

  test('a person keeps the name as listed, spaces collapsed, with the first token as family name', () => {
    assert.deepEqual(entities[0]?.names, [{ full: 'Examplov Ivan Petrovich', kind: 'primary', family: 'Examplov' }]);
    assert.deepEqual(entities[1]?.names, [{ full: 'SAMPLE RELIEF & AID FOUNDATION', kind: 'primary' }]);
  });

  test('listing date from DD-MM-YYYY or a typed date; source, sanctions and group id in remarks', () => {
    assert.deepEqual(
      entities.map((e) => e.listedOn),
      [
        { year: 2022, month: 3, day: 15 },
        { year: 2004, month: 6, day: 28 },
        { year: 2024, month: 2, day: 1 },
      ],
    );
    assert.equal(entities[0]?.remarks, 'Designation source: UK; Sanctions imposed: Asset freeze, Travel Ban; OFSI group ID 90001');
  });

  test('refuses a file that is not a zip, a zip that is not a spreadsheet, a truncated content and a sheet without the header', () => {
    assert.throws(() => parseUkFcdo(strToU8('Unique ID,Name\nX,Y\n')), isListFormatError(/not an OpenDocument spreadsheet: it cannot be unzipped/));
    assert.throws(
      () => parseUkFcdo(ods(content, 'application/vnd.oasis.opendocument.text')),
      isListFormatError(/its mimetype is "application\/vnd\.oasis\.opendocument\.text"/),
    );
    assert.throws(() => parseUkFcdo(ods(content.slice(0, content.length / 2))), isListFormatError(/content is truncated/));
    const renamed = content.replace('<text:p>Regime Name</text:p>', '<text:p>Regime</text:p>');
    assert.throws(
      () => parseUkFcdo(ods(renamed)),
      isListFormatError(
        /No sheet of this spreadsheet has the UK Sanctions List header \(Unique ID, Name, Regime Name, Type, Date Designated\); sheets: Notes, UK_Sanction_List/,
      ),
    );
  });

  test('the publication date from the FCDO export name', () => {
    assert.equal(publishedFromFileName('FCDO_SL_Mon_Aug 11 2025.ods'), '2025-08-11');
    assert.equal(publishedFromFileName('FCDO_SL_Tue_Jan 7 2025.ods'), '2025-01-07');
    assert.equal(publishedFromFileName('uk-list.ods'), undefined);
  });
});

describe('UK FCDO Sanctions List, on the real 2025-08 export', { skip: skipWithoutListData() }, () => {
  const { entities, warnings } = parseUkFcdo(fs.readFileSync(`${listDataDir()}/uk_fcdo_2025-08/FCDO_SL_Mon_Aug 11 2025.ods`));

  test('5,302 designations: 3,754 individuals (2 without a name, left out), 1,087 entities, 461 ships', () => {
    const count = (type: string) => entities.filter((e) => e.type === type).length;
    assert.deepEqual([count('person'), count('organization'), count('vessel')], [3_754 - 2, 1_087, 461]);
    assert.deepEqual(warnings, ['2 designations have no name and are left out: BEL0174, RUS1467']);
    assert.equal(new Set(entities.map((e) => e.entryId)).size, 5_300);
  });

  test('regimes, dates and the name order the file uses', () => {
    assert.equal(entities.filter((e) => e.programs[0] === 'Russia').length, 2_710 - 1, 'RUS1467 is one of the two unnamed');
    const iso = (d: { year: number; month?: number; day?: number } | undefined) => [d?.year, d?.month, d?.day].map((n) => String(n).padStart(2, '0')).join('-');
    assert.equal(
      entities
        .map((e) => iso(e.listedOn))
        .sort()
        .at(-1),
      '2025-07-23',
      'the newest designation SOURCES.md names',
    );
    const ermakov = entities.find((e) => e.names[0]?.full === 'Ermakov Maksim Yuryevich');
    assert.equal(ermakov?.names[0]?.family, 'Ermakov');
    assert.equal(
      entities.every((e) => e.listedOn !== undefined),
      true,
      'every designation has a date',
    );
  });
});
