import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { parseFtmEntities } from '../../src/screening/lists/ftm-entities.ts';
import { chooseDataset, listCodeOfDataset } from '../../src/screening/lists/ftm-list-code.ts';
import { detectFormat } from '../../src/screening/lists/list-format.ts';
import { ListFormatError } from '../../src/screening/lists/list-format-error.ts';
import { listDataDir, skipWithoutListData } from '../helpers/list-data.ts';

const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/opensanctions/${name}`, import.meta.url), 'utf8');
const entitiesFile = fixture('entities.ftm.json');
const deltaFile = fixture('entities.delta.json');
const inFolder = { name: 'entities.ftm.json', folder: 'opensanctions' };
const isListFormatError = (pattern: RegExp) => (e: unknown) => e instanceof ListFormatError && pattern.test(e.message);

describe('OpenSanctions FollowTheMoney entities, on a hand-written file', () => {
  const { list, entities, warnings } = parseFtmEntities(entitiesFile, inFolder);
  const byId = (id: string) => entities.find((e) => e.entryId === id);

  test('is recognised by its name or its first line; a delta line too', () => {
    assert.equal(detectFormat('entities.ftm.json', Buffer.from('')), 'opensanctions-ftm');
    assert.equal(detectFormat('export.jsonl', Buffer.from(entitiesFile.slice(0, 8192))), 'opensanctions-ftm');
    assert.equal(detectFormat('changes.json', Buffer.from(deltaFile)), 'opensanctions-ftm');
    assert.equal(detectFormat('other.json', Buffer.from('{"id":"x","name":"not an entity"}\n')), undefined);
  });

  test('the targeted persons, companies, vessels and aircraft are the entries, under their FtM ids, in the most common dataset', () => {
    assert.equal(list, 'OS_UA_WAR_SANCTIONS');
    assert.deepEqual(
      entities.map((e) => [e.entryId, e.type]),
      [
        ['NK-sample-person', 'person'],
        ['NK-sample-company', 'organization'],
        ['NK-sample-vessel', 'vessel'],
        ['NK-sample-airplane', 'aircraft'],
      ],
    );
  });

  test('names: the caption, the others in their own script or as aliases, weak aliases and previous names', () => {
    assert.deepEqual(byId('NK-sample-person')?.names, [
      { full: 'Ivan Petrovich EXAMPLOV', kind: 'primary' },
      { full: 'Иван Петрович ЭКЗАМПЛОВ', kind: 'original_script' },
      { full: 'Ivan Petrovych Ekzamplov', kind: 'strong_alias' },
      { full: 'Vanya Examplov', kind: 'strong_alias' },
      { full: 'Ivan Petrovich SAMPLOV', kind: 'former_name' },
      { full: 'VANYA', kind: 'weak_alias' },
    ]);
  });

  test('a person: dates of birth at their precision, countries by ISO code (an OpenSanctions code of its own kept unmapped), details', () => {
    const person = byId('NK-sample-person');
    assert.deepEqual(person?.datesOfBirth, [{ year: 1965, month: 3, day: 12 }, { year: 1968 }]);
    assert.deepEqual([person?.nationalities, person?.countries, person?.unmappedCountries], [['Russia', 'Belarus'], ['RU', 'BY'], ['suhh']]);
    assert.deepEqual(
      [person?.placesOfBirth, person?.gender, person?.title, person?.programs],
      [['Saint Petersburg'], 'male', 'Director of Sample Trading', ['UA-WS-MILIND']],
    );
    assert.equal(person?.remarks, 'Invented for a test.; OpenSanctions topics: sanction');
  });

  test('attached entities: the Address it references, the Passport it holds; a number given twice is kept once with its scheme', () => {
    const person = byId('NK-sample-person');
    assert.deepEqual(person?.addresses, [{ street: '12 Sample Street', cityStatePostal: 'Moscow 101000', country: 'RU', countryName: 'Russia' }]);
    assert.deepEqual(person?.identifiers, [
      { type: 'tax_id', value: '771234567890', note: 'INN' },
      { type: 'passport', value: '7101234567', country: 'RU', note: 'MVD 77001; expires 2030-05-01' },
    ]);
  });

  test('a company: OGRN and INN, the Sanction naming it (program, listing date), its owner as a linked name', () => {
    const company = byId('NK-sample-company');
    assert.deepEqual(company?.identifiers, [
      { type: 'registration_number', value: '1027700000001', note: 'OGRN' },
      { type: 'tax_id', value: '7701000001', note: 'INN' },
    ]);
    assert.deepEqual(
      [company?.programs, company?.listedOn, company?.linkedTo, company?.countries],
      [['UA-WS-MILIND', 'Military industry'], { year: 2023, month: 4, day: 20 }, ['Petr SAMPLOV'], ['RU']],
    );
  });

  test('a vessel and an aircraft: IMO, MMSI, call sign, flag; registration and serial number', () => {
    assert.deepEqual(byId('NK-sample-vessel')?.identifiers, [
      { type: 'imo', value: '9187629' },
      { type: 'mmsi', value: '352001234' },
      { type: 'call_sign', value: 'HPAB7' },
      { type: 'vessel_flag', value: 'Panama', country: 'PA' },
    ]);
    assert.deepEqual(byId('NK-sample-airplane')?.identifiers, [
      { type: 'registration_number', value: 'RA-00001' },
      { type: 'aircraft_msn', value: 'MSN 1234' },
    ]);
  });

  test('what is not an entry is said: the owner the dataset does not target, a schema not used, an address not in the file', () => {
    assert.deepEqual(warnings, [
      '1 person, organization, vessel or aircraft that the dataset does not target (owners, relatives …) is not a list entry; they only name linked entities',
      'Entities of schemas Gatehouse does not use were left out: Position 1',
      '1 address reference points to no Address entity in the file; those addresses are missing',
    ]);
  });
});

describe('the list an OpenSanctions file is', () => {
  test('known datasets keep the codes of their lists; any other is OS_ and its name', () => {
    assert.deepEqual(['eu_fsf', 'gb_fcdo_sanctions', 'us_ofac_sdn', 'us_ofac_cons', 'un_sc_sanctions', 'ua_war_sanctions'].map(listCodeOfDataset), [
      'EU_FSF',
      'UK_FCDO',
      'OFAC_SDN',
      'OFAC_CONS',
      'UN_SC',
      'OS_UA_WAR_SANCTIONS',
    ]);
    assert.equal(listCodeOfDataset('constructor'), 'OS_CONSTRUCTOR');
  });

  test('the dataset the file or its folder is named after wins, with a warning when not every entity is on it', () => {
    assert.deepEqual(parseFtmEntities(entitiesFile, { name: 'eu_fsf.ftm.json', folder: 'x' }).list, 'EU_FSF');
    const byFolder = parseFtmEntities(entitiesFile, { name: 'entities.ftm.json', folder: 'eu_fsf' });
    assert.equal(byFolder.list, 'EU_FSF');
    assert.equal(byFolder.warnings[0], '3 of 4 entities are not on eu_fsf; they are read into its list all the same');
    assert.equal(
      parseFtmEntities(entitiesFile, { name: 'us_ofac_sdn.ftm.json', folder: 'x' }).list,
      'OS_UA_WAR_SANCTIONS',
      'a name no entity carries is not taken',
    );
  });

  test('a tie prefers a list Gatehouse knows, then the first by name, and says so', () => {
    assert.deepEqual(
      chooseDataset(
        [
          ['zz_b', 'aa_a', 'un_sc_sanctions'],
          ['un_sc_sanctions', 'aa_a', 'zz_b'],
        ],
        { name: 'entities.ftm.json', folder: 'x' },
      ),
      {
        dataset: 'un_sc_sanctions',
        warnings: [
          'The entities are on 3 datasets equally often (un_sc_sanctions, aa_a, zz_b); read as un_sc_sanctions. Name the file <dataset>.ftm.json, or put it in a folder named after the dataset, to choose another',
        ],
      },
    );
    assert.equal(chooseDataset([['zz_b', 'aa_a']], { name: 'e.json', folder: 'x' }).dataset, 'aa_a');
    assert.throws(() => chooseDataset([[], []], { name: 'e.json', folder: 'x' }), isListFormatError(/No entity names the OpenSanctions dataset/));
  });
});

describe('the delta feed and malformed input', () => {
  test('ADD and MOD give the entity (the later line wins), DEL drops it; the list holds only what the delta adds', () => {
    const { entities, warnings } = parseFtmEntities(deltaFile, inFolder);
    assert.deepEqual(
      entities.map((e) => e.entryId),
      ['NK-sample-person', 'NK-sample-vessel'],
    );
    assert.ok(
      entities[0]?.names.some((n) => n.full === 'Ivan Ekzamplov'),
      'the alias the MOD added',
    );
    assert.equal(warnings[0], 'This is a delta: the list read from it holds only the 2 entities it adds or modifies; 1 deletion was dropped');
  });

  test('a broken line is refused with its number; a cut last line is said to be a truncation', () => {
    const lines = entitiesFile.trimEnd().split('\n');
    const broken = [lines[0], '{"id": "x", "schema": ', ...lines.slice(1)].join('\n');
    assert.throws(() => parseFtmEntities(broken, inFolder), isListFormatError(/^Line 2 is not valid JSON: /));
    const cut = `${lines.slice(0, 3).join('\n')}\n${lines[3]?.slice(0, 40)}`;
    assert.throws(() => parseFtmEntities(cut, inFolder), isListFormatError(/^Line 4 is not valid JSON \(the file may be truncated\)/));
  });

  test('a line that is no entity, an unknown operation and a file without entries are refused', () => {
    assert.throws(
      () => parseFtmEntities('{"id":"x","schema":"Person"}\n', inFolder),
      isListFormatError(/^Line 1 is not a FollowTheMoney entity: it needs an id, a schema and properties/),
    );
    assert.throws(() => parseFtmEntities('{"op":"UPSERT","entity":{}}\n', inFolder), isListFormatError(/^Line 1 has the operation "UPSERT"/));
    assert.throws(() => parseFtmEntities(`${entitiesFile.split('\n')[1]}\n`, inFolder), isListFormatError(/holds no person, organization, vessel or aircraft/));
  });
});

describe('OpenSanctions FtM, on the real eu_fsf excerpt of 2024-06', { skip: skipWithoutListData() }, () => {
  const folder = `${listDataDir()}/opensanctions_ftm_eu_fsf_excerpt_2024-06`;
  const read = (file: string) =>
    parseFtmEntities(fs.readFileSync(`${folder}/${file}`, 'utf8'), { name: file, folder: 'opensanctions_ftm_eu_fsf_excerpt_2024-06' });

  test('the export: 4 persons and 2 organizations of eu_fsf (the Address entity is no entry), names in many scripts', () => {
    const { list, entities, warnings } = read('entities.ftm.json');
    assert.equal(list, 'EU_FSF');
    assert.deepEqual(entities.map((e) => e.type).sort(), ['organization', 'organization', 'person', 'person', 'person', 'person']);
    const kuzmenko = entities.find((e) => e.entryId === 'NK-2Ka3UvopqbpZmVDFjWd4LA');
    assert.deepEqual(
      [kuzmenko?.names[0]?.full, kuzmenko?.datesOfBirth, kuzmenko?.nationalities, kuzmenko?.identifiers],
      ['Vitaly Yurievich KUZMENKO', [{ year: 1971, month: 1, day: 22 }], ['Russia'], [{ type: 'tax_id', value: '366510784303' }]],
    );
    assert.equal(entities.flatMap((e) => e.names).filter((n) => n.kind === 'original_script').length, 11, 'Cyrillic and Greek names');
    assert.deepEqual(
      warnings,
      ['2 address references point to no Address entity in the file; those addresses are missing'],
      'the excerpt left their addresses out',
    );
  });

  test('the delta: two ADDs on 17 datasets each, read as the list Gatehouse knows first, with both warnings', () => {
    const { list, entities, warnings } = read('entities.delta.json');
    assert.deepEqual([list, entities.map((e) => e.names[0]?.full)], ['EU_FSF', ['AL-QAIDA IN IRAQ', 'Janan Agha']]);
    assert.match(warnings[0] ?? '', /^The entities are on 17 datasets equally often \(eu_fsf, gb_fcdo_sanctions, un_sc_sanctions, ar_repet, /);
    assert.deepEqual(entities[1]?.datesOfBirth, [{ year: 1953 }, { year: 1958 }]);
    assert.equal(warnings[1], 'This is a delta: the list read from it holds only the 2 entities it adds or modifies');
  });
});
