import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadAllLists } from '../../bench/matching/list-loading.ts';
import {
  compactValue,
  identifierCore,
  identifierTypeOf,
  imoCheckDigitValid,
  isDistinctive,
  leiChecksumValid,
  normalizeIdentifier,
} from '../../src/screening/identifier-types.ts';
import { parseOfacLegacy } from '../../src/screening/lists/ofac-legacy.ts';
import { parseRemarks } from '../../src/screening/lists/ofac-remarks.ts';
import { IDENTIFIER_FOUND_SCORE } from '../../src/screening/match/identifiers.ts';
import type { SubjectQuery } from '../../src/screening/match-types.ts';
import { type EntityType, emptyEntity, type Identifier, type ListEntity } from '../../src/screening/model.ts';
import { buildScreeningIndex } from '../../src/screening/screening-index.ts';
import { listDataDir, readListFile, skipWithoutListData } from '../helpers/list-data.ts';

describe('identifier values as lists write them', () => {
  test('an IMO number with or without its prefix, spaced or not, is its 7 digits; anything else is no IMO number', () => {
    for (const written of ['IMO 9187629', '9187629', 'imo9187629', 'IMO No. 9187629', ' 918 7629 '])
      assert.equal(normalizeIdentifier('imo', written), '9187629', written);
    for (const wrong of ['918762', '91876290', 'IMO', '']) assert.equal(normalizeIdentifier('imo', wrong), undefined, wrong);
  });

  test("a ship's IMO check digit: 9187629 and 7406784 are valid, one digit off is not", () => {
    assert.ok(imoCheckDigitValid('9187629'));
    assert.ok(imoCheckDigitValid('7406784'));
    assert.ok(!imoCheckDigitValid('9187628'));
    assert.ok(!imoCheckDigitValid('9178629'));
    assert.ok(!imoCheckDigitValid('918762'));
  });

  test('an LEI is 20 letters and digits whose ISO 7064 check is 1; an MMSI 9 digits', () => {
    assert.equal(normalizeIdentifier('lei', '2534 00V1H6ART1UQ0N98'), '253400V1H6ART1UQ0N98');
    assert.ok(leiChecksumValid('253400V1H6ART1UQ0N98'));
    assert.ok(!leiChecksumValid('253400V1H6ART1UQ0N89'));
    assert.equal(normalizeIdentifier('lei', '852496369'), undefined);
    assert.equal(normalizeIdentifier('mmsi', 'MMSI 572 469 210'), '572469210');
    assert.equal(normalizeIdentifier('mmsi', '57246921'), undefined);
  });

  test('spaces, dashes, dots and case do not matter; Cyrillic capitals that look Latin read as Latin', () => {
    assert.equal(normalizeIdentifier('passport', 'a 123-456.7'), 'A1234567');
    assert.equal(normalizeIdentifier('tax_id', 'J-31069374-9'), 'J310693749');
    assert.equal(normalizeIdentifier('national_id', '35202- 4135948-7'), '3520241359487');
    assert.equal(compactValue('АВ 123456'), 'AB123456');
  });

  test('the number inside a value written with words, as the UN writes many', () => {
    assert.equal(identifierCore('CAR diplomatic passport no. D00000897'), 'D00000897');
    assert.equal(identifierCore('381110042 (Expired 25 Jan. 2016)'), '381110042');
    assert.equal(identifierCore('R00012098, South Sudan'), 'R00012098');
    assert.equal(identifierCore('Libya 428720'), '428720');
    assert.equal(identifierCore('German travel document (“Reiseausweis”) A 0139243'), 'A 0139243');
    assert.equal(identifierCore('OB 0243318'), 'OB 0243318', 'a series written apart is part of the number');
    assert.equal(identifierCore('TR-P 614 166'), 'TR-P 614 166');
    assert.equal(normalizeIdentifier('tax_id', 'RIF J-31069374-9'), 'J310693749', 'a scheme named before the number is not part of it');
  });

  test('only distinctive values find on their own: IMO, MMSI, LEI, and other numbers of six characters with a digit', () => {
    assert.ok(isDistinctive('imo', '9187629'));
    assert.ok(isDistinctive('passport', 'A12345'));
    assert.ok(isDistinctive('tax_id', '7702070139'));
    assert.ok(!isDistinctive('passport', '123'));
    assert.ok(!isDistinctive('national_id', 'ABCDEFG'), 'no digit');
    assert.ok(!isDistinctive('national_id', '000000'), 'a placeholder');
    assert.ok(!isDistinctive('other', 'HAVIGB2L'), 'other never finds');
  });

  test("each list's labels map onto the types: OFAC's, the UN's in three languages, the CSL's", () => {
    const cases: [string, string][] = [
      ['passport', 'passport'],
      ['Numéro de passeport', 'passport'],
      ['Número de pasaporte', 'passport'],
      ['National Identification Number', 'national_id'],
      ['cedula', 'national_id'],
      ['alt. C.U.R.P.', 'national_id'],
      ['R.F.C.', 'tax_id'],
      ['RFC', 'tax_id'],
      ['V.A.T. Number', 'tax_id'],
      ['registration_number', 'registration'],
      ['Registration ID', 'registration'],
      ['Unified Social Credit Code (USCC)', 'registration'],
      ['Government Gazette Number', 'registration'],
      ['Legal Entity Number', 'lei'],
      ['Vessel Registration Identification', 'imo'],
      ['Company Number IMO', 'imo'],
      ['mmsi', 'mmsi'],
    ];
    for (const [label, type] of cases) assert.equal(identifierTypeOf(label), type, label);
    assert.equal(identifierTypeOf('swift_bic'), 'other');
    assert.equal(identifierTypeOf('Website'), undefined);
  });
});

describe("OFAC's remarks", () => {
  const identifiersOf = (remarks: string) => parseRemarks(remarks).identifiers;

  test('an alternative passport is read like the first', () => {
    assert.deepEqual(identifiersOf('Passport 7012003 (Lebanon); alt. Passport PE385243 (Canada).'), [
      { type: 'passport', value: '7012003', country: 'LB' },
      { type: 'passport', value: 'PE385243', country: 'CA' },
    ]);
  });

  test('a value with spaces is read whole; a parenthesis that names no country stays as a note', () => {
    assert.deepEqual(identifiersOf('National ID No. 660000 73767 (Belgium)'), [{ type: 'national_id', value: '660000 73767', country: 'BE' }]);
    assert.deepEqual(identifiersOf('Registration Number HRA 738077 (Stuttgart) (Germany).'), [
      { type: 'registration_number', value: 'HRA 738077', country: 'DE', note: 'Stuttgart' },
    ]);
  });

  test('labels read since the first ones are recorded as OFAC writes them: company IMO numbers, CURP, USCC, OKPO', () => {
    assert.deepEqual(
      identifiersOf('Company Number IMO 5055293; C.U.R.P. AIMM67125HCHRRG06 (Mexico) issued 1968; Government Gazette Number 09804148 (Russia)'),
      [
        { type: 'Company Number IMO', value: '5055293' },
        { type: 'C.U.R.P.', value: 'AIMM67125HCHRRG06', country: 'MX', note: 'issued 1968' },
        { type: 'Government Gazette Number', value: '09804148', country: 'RU' },
      ],
    );
  });
});

function entity(entryId: string, type: EntityType, name: string, identifiers: Identifier[], list = 'OFAC_SDN'): ListEntity {
  return emptyEntity({ list, entryId, type, names: [{ full: name, kind: 'primary' }], identifiers, programs: ['TEST'] });
}

describe('identifiers find list entries', () => {
  const index = buildScreeningIndex([
    entity('v1', 'vessel', 'SEA STAR', [
      { type: 'imo', value: '9187629' },
      { type: 'mmsi', value: '572469210' },
    ]),
    entity('o1', 'organization', 'BLUE OCEAN SHIPPING LLC', [
      { type: 'Company Number IMO', value: '5055293' },
      { type: 'Tax ID No.', value: '7702070139', country: 'RU' },
    ]),
    entity('o2', 'organization', 'NORTHERN BANK', [{ type: 'Legal Entity Number', value: '253400V1H6ART1UQ0N98' }]),
    entity('p1', 'person', 'RAHIMI, Karim', [
      { type: 'passport', value: 'A1234567', country: 'IR' },
      { type: 'national_id', value: '123', country: 'IR' },
    ]),
    entity('p2', 'person', 'DOE, Jane', [{ type: 'Passport', value: 'Russian foreign travel passport number 515458008' }], 'UN_SC'),
    entity('p3', 'person', 'IMO, Vessel', [{ type: 'national_id', value: '9187629' }]),
  ]);
  const screen = (query: SubjectQuery) => index.screen(query);
  const ids = (query: SubjectQuery) => screen(query).map((m) => m.entity.entryId);

  test('an IMO number finds the vessel under a name it was never listed by, and says so', () => {
    const [match] = screen({ name: 'Caribbean Dawn', kind: 'vessel', identifiers: [{ type: 'imo', value: 'IMO 9187629' }] });
    assert.equal(match?.entity.entryId, 'v1');
    assert.ok((match?.score ?? 0) >= IDENTIFIER_FOUND_SCORE);
    assert.match(
      match?.explanation.summary ?? '',
      /^Found by identifier: IMO number 9187629 is on the entry \(IMO 9187629\)\. The names differ: "Caribbean Dawn" was compared with the listed name "SEA STAR"/,
    );
    assert.equal(match?.explanation.foundByIdentifier, 'IMO number 9187629 is on the entry (IMO 9187629)');
    assert.deepEqual(
      match?.explanation.tokens.map((t) => t.how),
      ['unmatched_query', 'unmatched_query', 'unmatched_list', 'unmatched_list'],
    );
  });

  test('an IMO number finds vessels and shipping companies, never a person; an MMSI finds the vessel', () => {
    assert.deepEqual(ids({ name: 'Unknown', kind: 'any', identifiers: [{ type: 'imo', value: '9187629' }] }), ['v1']);
    assert.deepEqual(ids({ name: 'Unknown', kind: 'organization', identifiers: [{ type: 'imo', value: '5055293' }] }), ['o1']);
    assert.deepEqual(ids({ name: 'Unknown', kind: 'person', identifiers: [{ type: 'imo', value: '9187629' }] }), []);
    assert.deepEqual(ids({ name: 'Unknown', kind: 'vessel', identifiers: [{ type: 'mmsi', value: '572469210' }] }), ['v1']);
  });

  test('a passport finds the person under another name; it also meets a national ID number', () => {
    assert.deepEqual(ids({ name: 'Kareem Rahimi', kind: 'person', identifiers: [{ type: 'passport', value: 'a 1234567', country: 'IR' }] }), ['p1']);
    assert.deepEqual(ids({ name: 'Someone Else', kind: 'person', identifiers: [{ type: 'national_id', value: 'A1234567' }] }), ['p1']);
    assert.deepEqual(
      ids({ name: 'Someone Else', kind: 'person', identifiers: [{ type: 'passport', value: '515458008' }] }),
      ['p2'],
      'the number inside the UN wording',
    );
  });

  test('a passport issued by another country than the listed one finds nothing, and corroborates nothing', () => {
    assert.deepEqual(ids({ name: 'Someone Else', kind: 'person', identifiers: [{ type: 'passport', value: 'A1234567', country: 'DE' }] }), []);
    const [byName] = screen({ name: 'Karim Rahimi', kind: 'person', identifiers: [{ type: 'passport', value: 'A1234567', country: 'DE' }] });
    const identifier = byName?.explanation.qualifiers.find((q) => q.factor === 'identifier');
    assert.deepEqual([identifier?.effect, identifier?.contribution], ['unknown', 0]);
    assert.match(identifier?.detail ?? '', /issued by IR: another issuer's number, not counted/);
  });

  test('a value on no entry, a short value and an `other` identifier find nothing on their own', () => {
    assert.deepEqual(ids({ name: 'Someone Else', kind: 'person', identifiers: [{ type: 'passport', value: 'B7654321' }] }), []);
    assert.deepEqual(ids({ name: 'Someone Else', kind: 'person', identifiers: [{ type: 'national_id', value: '123' }] }), []);
    assert.deepEqual(ids({ name: 'Unknown', kind: 'any', identifiers: [{ type: 'other', value: '9187629' }] }), []);
  });

  test('a tax number meets a listed tax or registration number of an organization; a number of another class does not', () => {
    assert.deepEqual(ids({ name: 'Unknown', kind: 'organization', identifiers: [{ type: 'registration', value: '7702070139', country: 'RU' }] }), ['o1']);
    assert.deepEqual(ids({ name: 'Unknown', kind: 'organization', identifiers: [{ type: 'lei', value: '253400V1H6ART1UQ0N98' }] }), ['o2']);
    assert.deepEqual(
      ids({ name: 'Unknown', kind: 'any', identifiers: [{ type: 'passport', value: '9187629' }] }),
      ['p3'],
      'a document number finds only the person listed with it',
    );
  });

  test('an identifier hit on an entry the name found too is one match, corroborated', () => {
    const matches = screen({ name: 'Sea Star', kind: 'vessel', identifiers: [{ type: 'imo', value: '9187629' }] });
    assert.equal(matches.length, 1);
    assert.equal(matches[0]?.score, 1);
    assert.equal(matches[0]?.explanation.foundByIdentifier, undefined, 'the name found it');
    assert.ok(matches[0]?.explanation.qualifiers.some((q) => q.factor === 'identifier' && q.effect === 'corroborates'));
  });

  test('the lists asked for bound what an identifier finds', () => {
    assert.deepEqual(ids({ name: 'Someone', kind: 'person', lists: ['OFAC_SDN'], identifiers: [{ type: 'passport', value: '515458008' }] }), []);
  });

  test('a vessel is screened against vessels only', () => {
    assert.deepEqual(ids({ name: 'Blue Ocean Shipping', kind: 'vessel' }), []);
    assert.deepEqual(ids({ name: 'Sea Star', kind: 'vessel' }), ['v1']);
  });
});

describe('identifiers on the real lists', { skip: skipWithoutListData() }, () => {
  test('every identifier label a parser records from the real lists is one the types know', async () => {
    const { lists } = await loadAllLists(listDataDir());
    const unknown = new Set(lists.flatMap((l) => l.entities.flatMap((e) => e.identifiers.map((i) => i.type))).filter((t) => !identifierTypeOf(t)));
    assert.deepEqual([...unknown], []);
  });

  describe('the SDN', () => {
    const { entities } = parseOfacLegacy('OFAC_SDN', { main: readListFile('ofac_sdn_2024-05/sdn.csv') });
    const sdn = buildScreeningIndex(entities);

    test('a listed vessel is found by its IMO number under a new name', () => {
      const [match] = sdn.screen({ name: 'Caribbean Dawn', kind: 'vessel', identifiers: [{ type: 'imo', value: 'IMO 7406784' }] });
      assert.deepEqual([match?.entity.entryId, match?.entity.names[0]?.full], ['4243', 'EBANO']);
      assert.match(match?.explanation.summary ?? '', /^Found by identifier: IMO number 7406784 is on the entry/);
    });

    test('a listed person is found by a passport number under another spelling of the name, and under another name altogether', () => {
      const [respelled] = sdn.screen({ name: 'Mishel Sammaha', kind: 'person', identifiers: [{ type: 'passport', value: 'PE 385243', country: 'CA' }] });
      assert.equal(respelled?.entity.entryId, '15640', 'SAMAHA, MICHEL: alt. Passport PE385243 (Canada)');
      assert.ok((respelled?.score ?? 0) >= IDENTIFIER_FOUND_SCORE);
      assert.match(respelled?.explanation.summary ?? '', /passport PE385243 \(CA\) is on the entry \(Passport PE385243 \(CA\)\)/);
      const [renamed] = sdn.screen({ name: 'Ahmad Kassem', kind: 'person', identifiers: [{ type: 'passport', value: 'RL2514323' }] });
      assert.equal(renamed?.entity.entryId, '27787', 'NUR-AL-DIN, Jawad: Passport RL2514323 (Lebanon)');
    });

    test('an unlisted number, a short one and a passport of another issuer find nothing', () => {
      for (const identifiers of [
        [{ type: 'passport' as const, value: 'X9999999' }],
        [{ type: 'passport' as const, value: '123' }],
        [{ type: 'passport' as const, value: 'RL2514323', country: 'FR' }],
      ]) {
        assert.deepEqual(sdn.screen({ name: 'Ahmad Kassem', kind: 'person', identifiers }), [], JSON.stringify(identifiers));
      }
    });
  });
});
