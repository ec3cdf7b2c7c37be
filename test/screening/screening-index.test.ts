import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseOfacLegacy } from '../../src/screening/lists/ofac-legacy.ts';
import type { SubjectQuery } from '../../src/screening/match-types.ts';
import { type EntityType, emptyEntity, type ListEntity, type ListedName } from '../../src/screening/model.ts';
import { buildScreeningIndex, DEFAULT_THRESHOLD } from '../../src/screening/screening-index.ts';
import { readListFile, skipWithoutListData } from '../helpers/list-data.ts';

function entity(entryId: string, type: EntityType, names: (string | ListedName)[], extra: Partial<ListEntity> = {}): ListEntity {
  return emptyEntity({
    list: 'OFAC_SDN',
    entryId,
    type,
    names: names.map((n, i) => (typeof n === 'string' ? { full: n, kind: i === 0 ? 'primary' : 'strong_alias' } : n)),
    programs: ['TEST'],
    ...extra,
  });
}

const entities: ListEntity[] = [
  entity('1', 'person', ['PUTIN, Vladimir Vladimirovich', 'ПУТИН, Владимир'], { countries: ['RU'], datesOfBirth: [{ year: 1952, month: 10, day: 7 }] }),
  entity('2', 'person', ['HUSSEIN, Saddam', { full: 'صدام حسين', kind: 'original_script' }], {
    countries: ['IQ'],
    datesOfBirth: [{ year: 1937, month: 4, day: 28 }],
  }),
  entity('3', 'person', ['AL-QADHAFI, Muammar', { full: 'GADDAFI, Moammar', kind: 'weak_alias' }], {
    countries: ['LY'],
    datesOfBirth: [{ year: 1942, circa: true }],
  }),
  entity('4', 'person', ['SMITH, John Michael'], { countries: ['GB'] }),
  entity('5', 'organization', ['ROSNEFT TRADING S.A.'], { countries: ['CH'] }),
  entity('6', 'organization', ['ZENITH ELECTRONICS LLC'], { countries: ['CN'] }),
  entity('7', 'organization', ['ABDULRAHMAN TRADING COMPANY'], { countries: ['AE'], identifiers: [{ type: 'Registration Number', value: 'AE-55512' }] }),
  entity('8', 'vessel', ['OCEAN STAR'], { identifiers: [{ type: 'IMO', value: '9123456' }] }),
  entity('9', 'person', ['XI, Jinping'], { list: 'UN_SC' }),
  entity('10', 'person', ['AL-HASHIMI, Mohammed Yusuf']),
  entity('11', 'person', ['KHADAFI, Omar']),
  entity('12', 'person', ['KIM, Jong Un']),
  entity('13', 'person', ['ABDULLAH']),
  entity('14', 'person', ['ALI, Mohamed']),
  entity('15', 'person', ['Mohammed bin Salman']),
  entity('16', 'organization', ['KKR ASIAN FUND IV L.P.']),
  entity('17', 'person', ['Isa Bin Tarif Al Bin Ali']),
];
const index = buildScreeningIndex(entities);

const top = (query: SubjectQuery, threshold = 0) => index.screen(query, { threshold })[0];
const scoreOf = (query: SubjectQuery, entryId: string) =>
  index.screen(query, { threshold: 0, limit: 50 }).find((m) => m.entity.entryId === entryId)?.score ?? 0;

describe('scoring properties', () => {
  test('every listed name matches itself at the top with 1', () => {
    for (const e of entities) {
      for (const name of e.names.filter((n) => n.kind !== 'weak_alias')) {
        const kind = e.type === 'person' ? 'person' : e.type === 'organization' ? 'organization' : 'any';
        const match = top({ name: name.full, kind });
        assert.equal(match?.entity.entryId, e.entryId, name.full);
        assert.equal(match?.score, 1, `${name.full}: ${match?.explanation.summary}`);
      }
    }
  });

  test('token order does not matter for persons', () => {
    for (const name of ['Vladimir Putin', 'PUTIN, Vladimir', 'Putin Vladimir'])
      assert.equal(scoreOf({ name, kind: 'person' }, '1'), scoreOf({ name: 'Vladimir Putin', kind: 'person' }, '1'), name);
  });

  test('a contradicting date of birth never raises a score, a corroborating one never lowers it', () => {
    const base: SubjectQuery = { name: 'Vladimir Putin', kind: 'person' };
    const without = scoreOf(base, '1');
    assert.ok(scoreOf({ ...base, dateOfBirth: { year: 1980 } }, '1') < without);
    assert.ok(scoreOf({ ...base, dateOfBirth: { year: 1952, month: 10, day: 8 } }, '1') <= without);
    assert.ok(scoreOf({ ...base, dateOfBirth: { year: 1952, month: 10, day: 7 } }, '1') >= without);
    assert.ok(
      scoreOf({ name: 'Vladmir Putn', kind: 'person', dateOfBirth: { year: 1952, month: 10, day: 7 } }, '1') >
        scoreOf({ name: 'Vladmir Putn', kind: 'person' }, '1'),
    );
  });

  test('a day and month written the other way round still corroborate', () => {
    const swapped = top({ name: 'Vladimir Putin', kind: 'person', dateOfBirth: { year: 1952, month: 7, day: 10 } });
    assert.equal(swapped?.explanation.qualifiers.find((q) => q.factor === 'date_of_birth')?.effect, 'corroborates');
  });

  test('a circa date of birth tolerates three years either way', () => {
    const qualifier = (year: number) =>
      top({ name: 'Muammar al-Qadhafi', kind: 'person', dateOfBirth: { year } })?.explanation.qualifiers.find((q) => q.factor === 'date_of_birth')?.effect;
    assert.equal(qualifier(1945), 'corroborates');
    assert.equal(qualifier(1950), 'contradicts');
  });

  test('a country on the entry corroborates, another one contradicts, none says nothing', () => {
    const base: SubjectQuery = { name: 'John Smith', kind: 'person' };
    const plain = scoreOf(base, '4');
    assert.ok(scoreOf({ ...base, countries: ['GB'] }, '4') > plain);
    assert.ok(scoreOf({ ...base, countries: ['US'] }, '4') < plain);
    assert.equal(scoreOf({ name: 'Ocean Star', kind: 'organization', countries: ['US'] }, '8'), scoreOf({ name: 'Ocean Star', kind: 'organization' }, '8'));
  });

  test('a legal form alone never makes a company match', () => {
    assert.equal(scoreOf({ name: 'Acme Electronics LLC', kind: 'organization' }, '6') < DEFAULT_THRESHOLD, true);
    assert.equal(scoreOf({ name: 'Acme LLC', kind: 'organization' }, '6'), 0);
    assert.equal(scoreOf({ name: 'Trading S.A.', kind: 'organization' }, '5') < DEFAULT_THRESHOLD, true);
  });

  test('a different legal form of the same name still matches, below the exact one', () => {
    const llc = scoreOf({ name: 'Rosneft Trading LLC', kind: 'organization' }, '5');
    assert.ok(llc >= DEFAULT_THRESHOLD && llc < 1, String(llc));
    assert.equal(scoreOf({ name: 'Rosneft Trading SA', kind: 'organization' }, '5'), 1);
  });

  test('an extra name on the subject in place of a listed one weighs more than a listed name left out', () => {
    const shorter = scoreOf({ name: 'John Smith', kind: 'person' }, '4');
    const another = scoreOf({ name: 'John Robert Smith', kind: 'person' }, '4');
    assert.ok(shorter > another, `${shorter} > ${another}`);
  });

  test('every listed name found, with a given name the listing does not carry, is a partial match that still alerts', () => {
    const longer = scoreOf({ name: 'John Robert Michael Smith', kind: 'person' }, '4');
    assert.ok(longer >= DEFAULT_THRESHOLD && longer < 1, String(longer));
  });

  test("a man's own name and his father's are not interchangeable, unless the name's order is not its own", () => {
    assert.ok(scoreOf({ name: 'Salman bin Mohammed', kind: 'person' }, '15') < DEFAULT_THRESHOLD);
    assert.ok(scoreOf({ name: 'bin Salman Mohammed', kind: 'person' }, '15') >= DEFAULT_THRESHOLD, 'a name cannot open with bin');
    assert.ok(scoreOf({ name: 'Salman Mohammed bin', kind: 'person' }, '15') >= DEFAULT_THRESHOLD, 'nor close with it');
  });

  test('spellings of one particle meet (ben and bin, el and al, Mc and Mac)', () => {
    const match = top({ name: 'Isa Ben Tarif El Ben Ali', kind: 'person' });
    assert.equal(match?.entity.entryId, '17');
    assert.ok(match.score >= 0.95, match.explanation.summary);
    const mac = buildScreeningIndex([entity('a', 'person', ['John MacDonald']), entity('b', 'organization', ['McKesson Corporation'])]);
    assert.ok((mac.screen({ name: 'John McDonald', kind: 'person' }, { threshold: 0 })[0]?.score ?? 0) >= 0.95);
    assert.ok(
      (mac.screen({ name: 'McKenton Corporation', kind: 'organization' }, { threshold: 0 })[0]?.score ?? 0) < DEFAULT_THRESHOLD,
      'Mc is a particle, not the name',
    );
  });

  test('a sibling numbered differently (the next fund, a renamed hull) is a match below the same number, and says so', () => {
    const sibling = top({ name: 'KKR Asian Fund III L.P.', kind: 'organization' });
    assert.equal(sibling?.entity.entryId, '16');
    assert.ok(sibling.score >= DEFAULT_THRESHOLD && sibling.score < top({ name: 'KKR Asian Fund 4 LP', kind: 'organization' })!.score);
    assert.match(sibling.explanation.summary, /the numbers differ/);
    assert.deepEqual(
      sibling.explanation.tokens.filter((t) => t.weight === 0).map((t) => t.query ?? t.list),
      ['iii', 'iv'],
    );
    assert.ok(scoreOf({ name: 'KKR Asian Fund', kind: 'organization' }, '16') < DEFAULT_THRESHOLD, 'a number on one side only is another entity');
  });

  test('two names sharing an ending (-dottir, -uddin) are held to the typo budget where they differ', () => {
    const shared = buildScreeningIndex([
      entity('a', 'person', ['Halla Tomasdottir']),
      entity('b', 'person', ['Mohammed Shahabuddin']),
      entity('c', 'person', ['Abdullah Yahya']),
      entity('d', 'person', ['Sedov Alexei Semenovich']),
      entity('e', 'person', ['Lantratova Yana Valerievna']),
    ]);
    const score = (name: string) => shared.screen({ name, kind: 'person' }, { threshold: 0 })[0]?.score ?? 0;
    assert.ok(score('Halla Jonsdottir') < DEFAULT_THRESHOLD, 'another father');
    assert.ok(score('Mohammed Shamsuddin') < DEFAULT_THRESHOLD, 'another name');
    assert.ok(score('Halla Tomasdotir') >= DEFAULT_THRESHOLD, 'a typo in the ending is still a typo');
    assert.ok(score('Mohammed Shahabudin') >= DEFAULT_THRESHOLD);
    assert.ok(score('Badullah Yahya') >= DEFAULT_THRESHOLD, 'one edit in a short beginning is still a typo');
    assert.ok(score('Lantratova Yana Vaeryevna') >= DEFAULT_THRESHOLD, 'and two');
    assert.ok(score('Sedov Aleksei Semyonovich') >= DEFAULT_THRESHOLD, 'beginnings of one sound are one name');
  });

  test('a same-sounding word counts fully only when spelled within a third of itself', () => {
    const sounds = buildScreeningIndex([entity('a', 'person', ['Oleg Baranov']), entity('b', 'person', ['Muammar Qaddafi'])]);
    const match = (name: string) => sounds.screen({ name, kind: 'person' }, { threshold: 0 })[0];
    const olga = match('Olga Barynova')?.explanation.tokens.find((t) => t.query === 'olga');
    const barynova = match('Olga Barynova')?.explanation.tokens.find((t) => t.query === 'barynova');
    assert.ok(olga && barynova && olga.similarity < barynova.similarity, 'olga and oleg are two letters of four apart, barynova and baranov two of eight');
    const kadhafi = match('Muammar Kadhafi');
    assert.ok((kadhafi?.score ?? 0) >= 0.9 && kadhafi?.explanation.tokens.some((t) => t.how === 'phonetic'), JSON.stringify(kadhafi?.explanation.tokens));
  });

  test('an identifier on the entry lifts a weak name match', () => {
    assert.ok(
      scoreOf({ name: 'Abdul Rahman Trading', kind: 'organization', identifiers: [{ type: 'registration', value: 'AE 55512' }] }, '7') >
        scoreOf({ name: 'Abdul Rahman Trading', kind: 'organization' }, '7'),
    );
  });

  test('persons are screened against persons, organizations against the rest; lists can be restricted', () => {
    assert.equal(index.screen({ name: 'Ocean Star', kind: 'person' }, { threshold: 0 }).length, 0);
    assert.equal(top({ name: 'Ocean Star', kind: 'any' })?.entity.entryId, '8');
    assert.equal(index.screen({ name: 'Xi Jinping', kind: 'person', lists: ['OFAC_SDN'] }, { threshold: 0.5 }).length, 0);
    assert.equal(top({ name: 'Xi Jinping', kind: 'person', lists: ['UN_SC'] })?.entity.entryId, '9');
  });
});

describe('spellings the matcher must see through, each explained', () => {
  const cases: [string, SubjectQuery, string, string][] = [
    ['a typo', { name: 'Vladimr Putin', kind: 'person' }, '1', 'typo'],
    ['Cyrillic', { name: 'Владимир Путин', kind: 'person' }, '1', 'transliterated'],
    ['a transliteration by sound', { name: 'Omar Gadhafi', kind: 'person' }, '11', 'phonetic'],
    ['a short form of a given name', { name: 'Muhammad Yusuf al Hashimi', kind: 'person' }, '10', 'nickname'],
    ['Arabic script against a Latin name', { name: 'صدام حسن', kind: 'person', lists: ['OFAC_SDN'] }, '2', 'transliterated'],
    ['spacing', { name: 'Abdul Rahman Trading Co', kind: 'organization' }, '7', 'merged'],
    ['three words around a particle the list writes as one', { name: 'Abd al-Rahman Trading Co', kind: 'organization' }, '7', 'merged'],
    ['Chinese characters', { name: '习近平', kind: 'person' }, '9', 'merged'],
    ['Hangul, read in the spellings lists use', { name: '김정은', kind: 'person' }, '12', 'transliterated'],
    ['two Arabic-script words the list writes as one', { name: 'عبد الله', kind: 'person' }, '13', 'merged'],
    ['a short Arabic-script word against a short Latin one', { name: 'محمد علي', kind: 'person' }, '14', 'transliterated'],
    ['an initial', { name: 'J. M. Smith', kind: 'person' }, '4', 'initial'],
  ];
  for (const [what, query, entryId, how] of cases) {
    test(what, () => {
      const match = top(query, DEFAULT_THRESHOLD);
      assert.equal(match?.entity.entryId, entryId, JSON.stringify(index.screen(query, { threshold: 0 })[0]?.explanation));
      assert.ok(
        match.explanation.tokens.some((t) => t.how === how),
        JSON.stringify(match.explanation.tokens),
      );
      assert.match(match.explanation.summary, new RegExp(match.matchedName.full.replace(/[()]/g, '.')));
    });
  }

  test('a weak a.k.a. match is marked and scores below the same name as a strong one', () => {
    const weak = top({ name: 'Moammar Gaddafi', kind: 'person' });
    assert.equal(weak?.entity.entryId, '3');
    const viaWeak = weak?.explanation.nameKind === 'weak_alias';
    assert.ok(viaWeak ? weak.score < 1 : weak?.explanation.nameKind === 'primary');
  });
});

describe('on the real SDN list', { skip: skipWithoutListData() }, () => {
  test('every listed name and strong alias matches itself at the top with 1', () => {
    const { entities } = parseOfacLegacy('OFAC_SDN', { main: readListFile('ofac_sdn_2024-05/sdn.csv'), aliases: readListFile('ofac_sdn_2025-01/alt.csv') });
    const sdn = buildScreeningIndex(entities);
    const misses: string[] = [];
    for (const entity of entities) {
      for (const name of entity.names.filter((n) => n.kind === 'primary' || n.kind === 'strong_alias')) {
        const kind = entity.type === 'person' ? 'person' : entity.type === 'organization' ? 'organization' : 'any';
        const best = sdn.screen({ name: name.full, kind }, { threshold: 0, limit: 50 });
        const top = best[0]?.score;
        if (top !== 1 || !best.some((m) => m.score === 1 && m.entity.entryId === entity.entryId)) misses.push(`${entity.entryId} ${name.full} → ${top}`);
      }
    }
    assert.deepEqual(misses, []);
  });
});
