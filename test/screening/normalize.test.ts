import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseOfacLegacy } from '../../src/screening/lists/ofac-legacy.ts';
import { analyzeName } from '../../src/screening/normalize/analyze-name.ts';
import { consonantSkeleton, foldWords } from '../../src/screening/normalize/fold.ts';
import { readListFile, skipWithoutListData } from '../helpers/list-data.ts';

const words = (name: string) => foldWords(name).map((w) => w.text);
const tokens = (name: string, isPerson: boolean) => analyzeName(name, isPerson).map((t) => `${t.role}:${t.text}`);

describe('folding names to comparable words', () => {
  const cases: [string, string[]][] = [
    ['Ərdoğan Müller-Lüdenscheidt', ['erdogan', 'muller', 'ludenscheidt']],
    ['Straße Øresund Łukasz Æther', ['strasse', 'oresund', 'lukasz', 'aether']],
    ["O'Brien, Ma'ruf ʿAbd", ['obrien', 'maruf', 'abd']],
    ['ROSNEFT TRADING S.A.', ['rosneft', 'trading', 'sa']],
    ['Владимир Путин', ['vladimir', 'putin']],
    ['Ελευθέριος Βενιζέλος', ['eleytherios', 'venizelos']],
    ['ＡＣＭＥ　Ｌｔｄ', ['acme', 'ltd']],
    ['SiemensAG Volkswagen GmbH Siemens AkG', ['siemens', 'ag', 'volkswagen', 'gmbh', 'siemens', 'akg']],
    ['Oboronnye o.O.O.', ['oboronnye', 'ooo']],
    ['Ig0r Sech1n Trust 2007-AHL1 AR16', ['igor', 'sechin', 'trust', '2007', 'ahl1', 'ar16']],
  ];
  for (const [input, expected] of cases) test(`${input} → ${expected.join(' ')}`, () => assert.deepEqual(words(input), expected));

  test('combining marks stay with their letter and invisible format characters vanish', () => {
    assert.deepEqual(words('مُحَمَّد عَلِي'), words('محمد علي'), 'Arabic vowel marks are optional in writing');
    assert.equal(words('नरेंद्र मोदी').length, 2, 'a Devanagari vowel sign does not split a word');
    assert.deepEqual(words('Bọ́lá Tinubu'), ['bola', 'tinubu']);
    assert.deepEqual(words('Jane\u200bDoe\u00ad'), ['jane', 'doe']);
    assert.deepEqual(words('\u200f!!! 😀'), []);
  });

  test('Han characters become one pinyin syllable each; Hangul blocks are split back into syllables', () => {
    assert.deepEqual(words('习近平'), ['xi', 'jin', 'ping']);
    assert.deepEqual(words('김정은'), ['gim', 'jeong', 'eun']);
  });

  test('Arabic-script words keep their script, so the scorer compares their consonants only', () => {
    const folded = foldWords('صدام حسين');
    assert.deepEqual(
      folded.map((w) => [w.text, w.script]),
      [
        ['sdm', 'abjad'],
        ['hsyn', 'abjad'],
      ],
    );
    assert.equal(consonantSkeleton('hsyn'), consonantSkeleton('hussein'));
    assert.equal(consonantSkeleton('mhmd'), consonantSkeleton('mohammed'));
  });
});

describe('the role of each word', () => {
  test('legal forms become their class, longest spelling first, only in organizations', () => {
    assert.deepEqual(tokens('Rosneft Trading S.A.', false), ['name:rosneft', 'name:trading', 'legal_form:~jsc']);
    assert.deepEqual(tokens('Example Limited Liability Company', false), ['name:example', 'legal_form:~llc']);
    assert.deepEqual(tokens('OOO Example', false), ['legal_form:~llc', 'name:example']);
    assert.deepEqual(tokens('Grupo Example S.A. de C.V.', false), ['name:grupo', 'name:example', 'legal_form:~partnership']);
  });

  test('a name that is nothing but a legal-form word keeps it as a name', () => {
    assert.deepEqual(tokens('LIMITED', false), ['name:limited']);
  });

  test("honorifics are dropped from persons' names, not from organizations'", () => {
    assert.deepEqual(tokens('Dr. Ayman al-Zawahiri', true), ['name:ayman', 'particle:al', 'name:zawahiri']);
    assert.deepEqual(tokens('Sheikh Haji Bashir Noorzai', true), ['name:bashir', 'name:noorzai']);
    assert.deepEqual(tokens('General Trading Company', false), ['name:general', 'name:trading', 'legal_form:~inc']);
  });

  test('a given name that doubles as a title is kept (Amir)', () => {
    assert.deepEqual(tokens('Amir Hamudi Hassan', true), ['name:amir', 'name:hamudi', 'name:hassan']);
  });

  test('numbers are their own role', () => {
    assert.deepEqual(tokens('Vessel 7 Star', false), ['name:vessel', 'number:7', 'name:star']);
  });
});

describe('legal forms on the real SDN list', { skip: skipWithoutListData() }, () => {
  test("the SDN's common organization suffixes are legal forms, its common domain words are not", () => {
    const { entities } = parseOfacLegacy('OFAC_SDN', { main: readListFile('ofac_sdn_2024-05/sdn.csv') });
    const lastWords = new Map<string, number>();
    for (const e of entities.filter((x) => x.type === 'organization')) {
      const words = foldWords(e.names[0]?.full ?? '').map((w) => w.text);
      const last = words.at(-1);
      if (last && words.length > 1) lastWords.set(last, (lastWords.get(last) ?? 0) + 1);
    }
    const common = [...lastWords].filter(([, n]) => n >= 25).map(([w]) => w);
    assert.ok(common.length >= 30, `${common.length} common suffixes`);
    const domainWords = ['group', 'bank', 'plant', 'organization', 'center', 'development', 'industries', 'technologies', 'trading'];
    const notLegalForms = common.filter((word) => analyzeName(`Example ${word}`, false).at(-1)?.role !== 'legal_form');
    assert.deepEqual(notLegalForms.sort(), domainWords.sort());
  });
});

describe('words that are not names', () => {
  test('patronymics are their own, lighter role, but only after the first word', () => {
    assert.deepEqual(tokens('Vladimir Vladimirovich Putin', true), ['name:vladimir', 'patronymic:vladimirovich', 'name:putin']);
    assert.deepEqual(tokens('Abramovich Roman', true), ['name:abramovich', 'name:roman']);
  });

  test('Arabic name particles are particles, so the scorer can weigh them lightly and join them; Abd begins a name of its own', () => {
    assert.deepEqual(tokens('Ayman al-Zawahiri bin Muhammad', true), ['name:ayman', 'particle:al', 'name:zawahiri', 'particle:bin', 'name:muhammad']);
    assert.deepEqual(tokens('Abdul Ghani Baradar', true), ['name:abdul', 'name:ghani', 'name:baradar']);
  });

  test('a particle that closes a name leads into nothing and is the name (the Korean syllable Bin)', () => {
    assert.deepEqual(tokens('Ko Tae Bin', true), ['name:ko', 'name:tae', 'name:bin']);
    assert.deepEqual(tokens('Nooruddin Turabi Abdul', true), ['name:nooruddin', 'name:turabi', 'name:abdul']);
  });

  test("numbers written in words or Roman numerals are read as digits in organizations' names", () => {
    assert.deepEqual(tokens('Brigade Forty-Four', false), ['name:brigade', 'number:44']);
    assert.deepEqual(tokens('Brigade Fourty 4', false), ['name:brigade', 'number:44']);
    assert.deepEqual(tokens('Three Percenters', false), ['number:3', 'name:percenters']);
    assert.deepEqual(tokens('1st International Bank', false), tokens('First International Bank', false));
    assert.deepEqual(tokens('Carlyle Partners VII', false), ['name:carlyle', 'name:partners', 'number:7']);
    assert.deepEqual(tokens('X Corp', false), ['name:x', 'legal_form:~inc'], 'a first word is not a Roman numeral');
    assert.deepEqual(tokens('Firsst Bank', false), ['number:1', 'name:bank'], 'a number word with a letter doubled');
    assert.deepEqual(tokens('Steven Trading', false), ['name:steven', 'name:trading']);
    assert.deepEqual(tokens('Forty Tayyip', true), ['name:forty', 'name:tayyip'], "not in persons' names");
  });

  test("common abbreviations are spelled out in organizations' names", () => {
    assert.deepEqual(tokens('First Bank Int’l', false), ['number:1', 'name:bank', 'name:international']);
    assert.deepEqual(tokens('U.S. Dept. of State', false), ['name:united', 'name:states', 'name:department', 'connective:of', 'name:state']);
    assert.deepEqual(tokens('Us Jane', true), ['name:us', 'name:jane']);
  });

  test("a ship's prefix is dropped from a craft's name, not from a short one", () => {
    assert.deepEqual(tokens('MV Hellenic Spirit', false), ['name:hellenic', 'name:spirit']);
    assert.deepEqual(tokens('MV Trading', false), ['name:mv', 'name:trading']);
  });

  test('a name always keeps a word that identifies it', () => {
    assert.deepEqual(tokens('LLC SPEL', false), ['legal_form:~llc', 'name:spel']);
    assert.deepEqual(tokens('PTE OOO', false), ['name:pte', 'name:ooo']);
    assert.deepEqual(tokens('El Senor', true), ['name:el', 'name:senor']);
  });

  test('a misspelled long legal form is still a legal form; a short one only as the last word, with its own letters', () => {
    assert.deepEqual(tokens('Cubanacan Limiteed', false), ['name:cubanacan', 'legal_form:~ltd']);
    assert.deepEqual(tokens('Metalform Gmhb', false), ['name:metalform', 'legal_form:~llc']);
    assert.deepEqual(tokens('Gmhb Metalform', false), ['name:gmhb', 'name:metalform']);
    assert.deepEqual(tokens('Banco Cora', false), ['name:banco', 'name:cora'], 'one letter changed is another word, not CORP');
  });
});

describe('legal-form phrases, whole or in part', () => {
  test('Cyrillic legal forms fold to one spelling whatever the case of the source', () => {
    assert.deepEqual(tokens('ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ Ромашка', false), ['legal_form:~llc', 'name:romashka']);
    assert.deepEqual(words('ЩУКИН Щукин'), ['shchukin', 'shchukin']);
  });

  test('the words left of a legal-form phrase with a word dropped or misspelled are still legal-form words', () => {
    assert.deepEqual(tokens('Obshchestvo Ogranichennoi Otvetstvennostyu Romashka', false), [
      'legal_form:~obshchestvo',
      'legal_form:~ogranichennoi',
      'legal_form:~otvetstvennostyu',
      'name:romashka',
    ]);
    assert.equal(analyzeName('Obshchetsvo Romashka', false)[0]?.role, 'legal_form');
  });
});
