import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { parseBisDpl } from '../../src/screening/lists/bis-dpl.ts';
import { ListFormatError } from '../../src/screening/lists/list-format-error.ts';
import { readListFile, skipWithoutListData } from '../helpers/list-data.ts';

const fixture = fs.readFileSync(new URL('../fixtures/bis/dpl.txt', import.meta.url), 'latin1');

describe('BIS Denied Persons List, on a hand-written fixture', () => {
  const entities = parseBisDpl(fixture);

  test('groups rows into one entity per name, spaces trimmed and collapsed', () => {
    assert.deepEqual(
      entities.map((e) => [e.entryId, e.type, e.addresses.length]),
      [
        ['JANE ROE', 'person', 2],
        ['EXAMPLE ELECTRONICS TRADING, LTD.', 'organization', 1],
      ],
    );
  });

  test('keeps every address, the countries given, and the earliest effective date as the listing date', () => {
    const [jane, company] = entities;
    assert.deepEqual(jane?.countries, ['US']);
    assert.deepEqual(jane?.listedOn, { year: 2021, month: 2, day: 10 });
    assert.equal(jane?.addresses[0]?.country, undefined, 'an empty Country stays empty');
    assert.match(String(jane?.remarks), /86 F\.R\. 9030/);
    assert.match(String(jane?.remarks), /non-standard order/);
    assert.deepEqual(company?.countries, ['HK']);
    assert.deepEqual(company?.programs, ['EAR-DENIED']);
  });

  test('refuses another format, a truncated row and an empty list', () => {
    assert.throws(
      () => parseBisDpl('Name,Address\nX,Y\n'),
      (e: Error) => e instanceof ListFormatError && /not a Denied Persons List/.test(e.message),
    );
    const lines = fixture.split('\n');
    const truncated = `${lines[0]}\n${lines[1]?.split('\t').slice(0, 5).join('\t')}\n`;
    assert.throws(() => parseBisDpl(truncated), /record 2 has 5 fields/i);
    assert.throws(() => parseBisDpl(`${lines[0]}\n`), /no entries/);
  });
});

describe('BIS Denied Persons List, on the real file', { skip: skipWithoutListData() }, () => {
  test('the 2023-11 file: 665 rows, 545 parties', () => {
    const entities = parseBisDpl(readListFile('bis_dpl_2023-11/dpl.txt'));
    assert.equal(
      entities.reduce((rows, e) => rows + e.addresses.length, 0),
      665,
    );
    // SOURCES.md counts 546 distinct names: " I. ASH" also appears with its stray leading space.
    assert.equal(entities.length, 545);
    const newest = entities
      .map((e) => e.listedOn)
      .filter((d) => d !== undefined)
      .sort((a, b) => b.year - a.year || (b.month ?? 0) - (a.month ?? 0) || (b.day ?? 0) - (a.day ?? 0))[0];
    assert.deepEqual(newest, { year: 2023, month: 11, day: 16 });
    assert.ok(entities.every((e) => e.names[0]?.full === e.names[0]?.full.trim()));
  });
});
