import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { parseCslCsv } from '../../src/screening/lists/csl-csv.ts';
import { parseCslJson } from '../../src/screening/lists/csl-json.ts';
import { cslSource } from '../../src/screening/lists/csl-sources.ts';
import { ListFormatError } from '../../src/screening/lists/list-format-error.ts';
import type { ListEntity } from '../../src/screening/model.ts';
import { listDataDir, skipWithoutListData } from '../helpers/list-data.ts';

const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/csl/${name}`, import.meta.url), 'utf8');
const entitiesOf = (lists: { list: string; entities: ListEntity[] }[], code: string) => lists.find((l) => l.list === code)?.entities ?? [];

describe('CSL sources to list codes', () => {
  test('BIS, State and OFAC sources by their abbreviation; OFAC non-SDN lists are OFAC_CONS with the sub-list', () => {
    assert.deepEqual(cslSource('Entity List (EL) - Bureau of Industry and Security'), { list: 'BIS_EL', known: true });
    assert.deepEqual(cslSource('Military End User (MEU) List - Bureau of Industry and Security'), { list: 'BIS_MEU', known: true });
    assert.deepEqual(cslSource('ITAR Debarred (DTC) - State Department'), { list: 'DDTC_DEBARRED', known: true });
    assert.deepEqual(cslSource('Nonproliferation Sanctions (ISN) - State Department'), { list: 'STATE_ISN', known: true });
    assert.deepEqual(cslSource('Non-SDN Menu-Based Sanctions List (NS-MBS List) - Treasury Department'), { list: 'OFAC_CONS', subList: 'NS-MBS', known: true });
    assert.deepEqual(cslSource('Non-SDN Chinese Military-Industrial Complex Companies List (CMIC) - Treasury Department'), {
      list: 'OFAC_CONS',
      subList: 'CMIC',
      known: true,
    });
  });

  test('an unknown source gets an upper-snake code from its abbreviation, or from its name', () => {
    assert.deepEqual(cslSource('Example Restrictions (X-RL 2) - Department of Examples'), { list: 'X_RL_2', known: false });
    assert.deepEqual(cslSource('Some New List - Department of Examples'), { list: 'SOME_NEW_LIST', known: false });
  });
});

describe('CSL CSV, on a hand-written fixture', () => {
  const lists = parseCslCsv(fixture('consolidated.csv'));

  test('one list per source, rows with the same id merged with a warning', () => {
    assert.deepEqual(
      lists.map((l) => [l.list, l.entities.length]),
      [
        ['BIS_DPL', 2],
        ['BIS_EL', 1],
        ['OFAC_CONS', 1],
      ],
    );
    assert.deepEqual(
      entitiesOf(lists, 'BIS_EL')[0]?.names.map((n) => [n.full, n.kind]),
      [
        ['Sample Institute of Physics', 'primary'],
        ['SIP', 'strong_alias'],
        ['Sample Physics Institute', 'strong_alias'],
      ],
    );
    assert.deepEqual(entitiesOf(lists, 'BIS_EL')[0]?.countries, ['RU', 'BY']);
    assert.deepEqual(lists[1]?.warnings, ['1 row repeats an entry id already read in BIS_EL; merged into that entry']);
  });

  test('untyped Denied Persons rows: a legal form makes an organization; addresses end in the ISO code', () => {
    const [jane, company] = entitiesOf(lists, 'BIS_DPL');
    assert.deepEqual([jane?.type, company?.type], ['person', 'organization']);
    assert.deepEqual(jane?.addresses, [{ street: '1 Main Street, Springfield, IL, 62701', country: 'US' }]);
    assert.deepEqual(jane?.listedOn, { year: 2021, month: 2, day: 10 });
    assert.match(String(jane?.remarks), /Federal Register: 86 F\.R\. 9030 \| until 2031-02-10/);
  });

  test('an OFAC person: entity_number as id, LAST, First split, sub-list as program, ids and gender', () => {
    const [doe] = entitiesOf(lists, 'OFAC_CONS');
    assert.equal(doe?.entryId, '90003');
    assert.deepEqual(doe?.names, [{ full: 'DOE, John', kind: 'primary', family: 'DOE', given: 'John' }]);
    assert.deepEqual(doe?.programs, ['FSE', 'FSE-SY']);
    assert.deepEqual(doe?.countries, ['AE', 'TR', 'SY']);
    assert.deepEqual(doe?.identifiers, [{ type: 'Passport', value: 'P7654321', country: 'TR' }]);
    assert.equal(doe?.gender, 'male');
    assert.deepEqual(doe?.datesOfBirth, [{ year: 1975 }]);
  });

  test('refuses a CSV without the CSL header, a row with too few fields, and an empty list', () => {
    const text = fixture('consolidated.csv');
    const [header, first] = text.split('\n');
    assert.throws(
      () => parseCslCsv('name,source\nX,Y\n'),
      (e: Error) => e instanceof ListFormatError && /not a Consolidated Screening List CSV: its header should be _id,source,entity_number/.test(e.message),
    );
    const short = `${header}\n${first?.split('","').slice(0, 10).join('","')}"\n`;
    assert.throws(() => parseCslCsv(short), /Record 2 has 10 fields, not 29/);
    assert.throws(() => parseCslCsv(`${header}\n`), /no entries/);
  });
});

describe('CSL JSON, on a hand-written fixture', () => {
  const lists = parseCslJson(fixture('consolidated.json'));

  test('the same lists and codes as the CSV, an unknown source kept with a warning', () => {
    assert.deepEqual(
      lists.map((l) => [l.list, l.entities.length]),
      [
        ['OFAC_SDN', 1],
        ['BIS_EL', 1],
        ['OFAC_CONS', 1],
        ['XRL', 1],
      ],
    );
    assert.deepEqual(entitiesOf(lists, 'XRL')[0]?.unmappedCountries, ['Atlantis']);
    assert.deepEqual(lists.at(-1)?.warnings, [
      'The CSL source "Example Restrictions List (XRL) - Department of Examples" is not one Gatehouse knows; its entries are kept under the list code XRL',
    ]);
  });

  test('an SDN person: structured addresses, countries by code or name, ids, gender, statements in remarks', () => {
    const [reza] = entitiesOf(lists, 'OFAC_SDN');
    assert.equal(reza?.entryId, '90001');
    assert.deepEqual(
      reza?.names.map((n) => [n.full, n.kind, n.family]),
      [
        ['EXAMPLE, Reza Karim', 'primary', 'EXAMPLE'],
        ['EXAMPLE, Reza', 'strong_alias', 'EXAMPLE'],
        ['ABU KARIM', 'strong_alias', undefined],
      ],
    );
    assert.deepEqual(reza?.addresses, [
      { street: '12 Example Street', cityStatePostal: 'Tehran, 1234', country: 'IR' },
      { cityStatePostal: 'Damascus', country: 'SY', countryName: 'Syria' },
    ]);
    assert.deepEqual(reza?.countries, ['IR', 'SY']);
    assert.deepEqual(reza?.datesOfBirth, [
      { year: 1970, month: 3, day: 21 },
      { year: 1968, circa: true },
    ]);
    assert.deepEqual(reza?.identifiers, [{ type: 'Passport', value: 'K1234567', country: 'IR' }]);
    assert.equal(reza?.gender, 'male');
    assert.equal(reza?.remarks, 'Secondary sanctions risk: section 1245 of the NDAA');
    assert.deepEqual(reza?.programs, ['SDGT', 'IRGC']);
    assert.equal(reza?.listedOn, undefined, 'an empty start_date is no date');
  });

  test('an Entity List entry: "and " dropped from an alias, license terms in remarks; a vessel with call sign and flag', () => {
    const [institute] = entitiesOf(lists, 'BIS_EL');
    assert.equal(institute?.entryId, 'f3a1c0de0002');
    assert.deepEqual(
      institute?.names.map((n) => n.full),
      ['Example Microelectronics Research Institute', 'EMRI', 'Example Micro Institute'],
    );
    assert.match(String(institute?.remarks), /License policy: Presumption of denial\./);
    const [ship] = entitiesOf(lists, 'OFAC_CONS');
    assert.equal(ship?.type, 'vessel');
    assert.deepEqual(ship?.programs, ['SSI', 'UKRAINE-EO13662', 'RUSSIA-EO14024']);
    assert.deepEqual(
      ship?.identifiers.map((i) => [i.type, i.value, i.country]),
      [
        ['Vessel Registration Identification', 'IMO 9123456', undefined],
        ['call_sign', 'UBCD7', undefined],
        ['vessel_flag', 'Russia', 'RU'],
      ],
    );
  });

  test('refuses malformed JSON, another shape and a result without a name', () => {
    const text = fixture('consolidated.json');
    assert.throws(
      () => parseCslJson(text.slice(0, text.length / 2)),
      (e: Error) => e instanceof ListFormatError && /malformed or truncated/.test(e.message),
    );
    assert.throws(() => parseCslJson('[{"name": "x"}]'), /no "results" array/);
    assert.throws(() => parseCslJson('{"results": [{"source": "SDN", "id": "1"}]}'), /Result 1 has no source, no name or no id/);
  });
});

describe('CSL CSV, on the real files', { skip: skipWithoutListData() }, () => {
  const read = (file: string) => parseCslCsv(fs.readFileSync(`${listDataDir()}/${file}`, 'utf8'));

  test('the 14-row 2023 sample: one entity per row, in eight lists', () => {
    const lists = read('csl_sample_2023/consolidated.csv');
    assert.deepEqual(
      lists.map((l) => [l.list, l.entities.length]),
      [
        ['STATE_ISN', 1],
        ['BIS_UVL', 1],
        ['BIS_MEU', 1],
        ['OFAC_CONS', 6],
        ['OFAC_SDN', 1],
        ['DDTC_DEBARRED', 1],
        ['BIS_DPL', 1],
        ['BIS_EL', 1],
      ],
    );
    assert.deepEqual(
      entitiesOf(lists, 'OFAC_CONS')
        .map((e) => e.programs[0])
        .sort(),
      ['FSE', 'PLC', 'PLC', 'SSI', 'SSI', 'SSI'],
    );
    assert.equal(entitiesOf(lists, 'STATE_ISN')[0]?.names[0]?.full, 'Sinobright Import and Export Company', 'the successor clause is not part of the name');
    const [rim] = entitiesOf(lists, 'OFAC_SDN');
    assert.deepEqual(
      [rim?.entryId, rim?.type, rim?.countries, rim?.identifiers[0]],
      ['52291', 'person', ['CN', 'KP'], { type: 'Passport', value: '836238033', country: 'KP' }],
    );
    const [el] = entitiesOf(lists, 'BIS_EL');
    assert.equal(el?.addresses.length, 3, 'addresses joined by "; and" are split');
    assert.equal(el?.names.at(-1)?.full, 'CETC Research Institute 13');
  });

  test('the 2026-08 Entity List and MEU as CSL: 3,420 + 56 rows, 66 EL rows repeating an id merged, 5,100 distinct aliases', () => {
    const lists = read('bis_el_meu_2026-08_as_csl/consolidated.csv');
    assert.deepEqual(
      lists.map((l) => [l.list, l.entities.length]),
      [
        ['BIS_EL', 3_420 - 66],
        ['BIS_MEU', 56],
      ],
    );
    assert.deepEqual(lists[0]?.warnings, ['66 rows repeat an entry id already read in BIS_EL; merged into that entry']);
    const aliases = lists
      .flatMap((l) => l.entities)
      .flatMap((e) => e.names)
      .filter((n) => n.kind === 'strong_alias');
    assert.equal(aliases.length, 5_100);
    assert.equal(
      aliases.some((n) => /^and /.test(n.full)),
      false,
    );
    assert.deepEqual(
      lists.flatMap((l) => l.entities).flatMap((e) => e.unmappedCountries),
      [],
    );
  });
});
