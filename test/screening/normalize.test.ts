import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeName } from '../../src/screening/normalize/analyze-name.ts';
import { consonantSkeleton, foldWords } from '../../src/screening/normalize/fold.ts';

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
  ];
  for (const [input, expected] of cases) test(`${input} → ${expected.join(' ')}`, () => assert.deepEqual(words(input), expected));

  test('Han characters become one pinyin syllable each; Hangul blocks are split back into syllables', () => {
    assert.deepEqual(words('习近平'), ['xi', 'jin', 'ping']);
    assert.deepEqual(words('김정은'), ['gim', 'jeong', 'eun']);
  });

  test('Arabic-script words keep their script, so the scorer compares their consonants only', () => {
    const folded = foldWords('صدام حسين');
    assert.deepEqual(folded.map((w) => [w.text, w.script]), [['sdm', 'abjad'], ['hsyn', 'abjad']]);
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
