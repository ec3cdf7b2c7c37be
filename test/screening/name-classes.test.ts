/**
 * The ways people write a listed party's name that issue 30 found walking through, each on real
 * list entries (the SDN with its aliases, the UN list and the Entity List in the CSL layout), and
 * ordinary names that must stay clear. The engine is the one the service runs: nothing here knows
 * a name, each case only picks a real entry and writes its name the way a person would.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { parseOfacLegacy } from '../../src/screening/lists/ofac-legacy.ts';
import { readListSources } from '../../src/screening/lists/read-list-sources.ts';
import type { ScreeningMatch, SubjectQuery } from '../../src/screening/match-types.ts';
import { buildScreeningIndex, DEFAULT_THRESHOLD, type ScreeningIndex } from '../../src/screening/screening-index.ts';
import { listDataDir, readListFile, skipWithoutListData } from '../helpers/list-data.ts';

/** A query, the list and entry it must find at the default threshold, and what the explanation must say. */
type Case = { what: string; query: SubjectQuery; list: string; entryId: string; says?: RegExp };

const CLASSES: Record<string, Case[]> = {
  'legal-form and designation phrases in any position weigh little': [
    { what: 'the state designation left out', query: { name: 'Bazalt', kind: 'organization' }, list: 'OFAC_SDN', entryId: '16862' },
    {
      what: 'the legal form and designation moved to the end',
      query: { name: 'Kvant Joint Stock Company Research and Production Association', kind: 'organization' },
      list: 'OFAC_SDN',
      entryId: '35343',
      says: /legal form/,
    },
  ],
  'a bracketed part is tried as part of the name and as another name': [
    {
      what: 'the acronym in brackets alone',
      query: { name: 'RSM', kind: 'organization' },
      list: 'OFAC_SDN',
      entryId: '10928',
      says: /without a part in brackets/,
    },
    {
      what: 'the name with its acronym in brackets',
      query: { name: 'Islamic Revolutionary Guard Corps Qods Force (IRGC-QF)', kind: 'organization' },
      list: 'OFAC_SDN',
      entryId: '10465',
    },
  ],
  'generational suffixes and honorifics are qualifiers, not name words': [
    { what: 'Jr. after the name', query: { name: 'Igor Ivanovich Sechin Jr.', kind: 'person' }, list: 'OFAC_SDN', entryId: '16692' },
    { what: 'a title before it', query: { name: 'Dr. Oleg Deripaska', kind: 'person' }, list: 'OFAC_SDN', entryId: '24283' },
    { what: 'a Roman numeral closing it', query: { name: 'Ramzan Akhmatovich Kadyrov III', kind: 'person' }, list: 'OFAC_SDN', entryId: '23343' },
  ],
  'digits typed for letters are folded': [
    { what: 'a digit closing a word', query: { name: 'Ramzan Kadyr0v', kind: 'person' }, list: 'OFAC_SDN', entryId: '23343' },
    { what: 'a digit opening a word and one inside', query: { name: '0leg Der1paska', kind: 'person' }, list: 'OFAC_SDN', entryId: '24283' },
    { what: "an organization's name", query: { name: 'R0SOBORONEXP0RT', kind: 'organization' }, list: 'OFAC_SDN', entryId: '18782' },
  ],
  'an everyday name finds the full legal name': [
    {
      what: 'a brand form of a trade word (Airways for AIR)',
      query: { name: 'Meraj Airways', kind: 'organization' },
      list: 'OFAC_SDN',
      entryId: '17227',
      says: /trade word/,
    },
    {
      what: 'a derived form of a trade word (Trading for TRADE)',
      query: { name: 'Sky Trading', kind: 'organization' },
      list: 'OFAC_SDN',
      entryId: '23671',
      says: /trade word/,
    },
  ],
  'a listing with fewer given names than the query is a partial match': [
    {
      what: 'an extra given name',
      query: { name: 'Oleg Andreyevich Vladimirovich Deripaska', kind: 'person' },
      list: 'OFAC_SDN',
      entryId: '24283',
      says: /not on the list name: andreyevich/,
    },
    { what: 'an extra name in a long Arabic name', query: { name: 'Ayman Abdallah al-Zawahiri', kind: 'person' }, list: 'OFAC_SDN', entryId: '2676' },
  ],
  'Korean names in Hanja match their Hangul and romanized forms': [
    { what: 'Hanja, read the Korean way', query: { name: '金英哲', kind: 'person' }, list: 'OFAC_SDN', entryId: '12211', says: /across scripts/ },
    { what: 'Hangul', query: { name: '김영철', kind: 'person' }, list: 'OFAC_SDN', entryId: '12211', says: /across scripts/ },
  ],
};

/** Ordinary names, people's and companies', that match no listed party and must stay clear. */
const ORDINARY: SubjectQuery[] = [
  { name: 'Emily Johnson', kind: 'person' },
  { name: 'Priya Raman', kind: 'person' },
  { name: 'Dr. Emily Johnson Jr.', kind: 'person' },
  { name: 'Pr1ya Raman', kind: 'person' },
  { name: 'Acme Widgets Inc', kind: 'organization' },
  { name: 'Northwind Logistics GmbH', kind: 'organization' },
  { name: 'International Trading Company', kind: 'organization' },
  { name: 'State Corporation', kind: 'organization' },
  { name: '刘德华', kind: 'person' },
  { name: '陈美玲', kind: 'person' },
];

describe('name classes on real list entries', { skip: skipWithoutListData() }, () => {
  let index: ScreeningIndex;
  before(async () => {
    const sdn = parseOfacLegacy('OFAC_SDN', { main: readListFile('ofac_sdn_2024-05/sdn.csv'), aliases: readListFile('ofac_sdn_2025-01/alt.csv') }).entities;
    const others = await readListSources([path.join(listDataDir(), 'un_sc_2026-02'), path.join(listDataDir(), 'bis_el_meu_2026-08_as_csl')]);
    index = buildScreeningIndex([...sdn, ...others.flatMap((l) => l.entities)]);
  });

  const found = (c: Case): ScreeningMatch | undefined =>
    index.screen(c.query, { threshold: DEFAULT_THRESHOLD, limit: 50 }).find((m) => m.entity.list === c.list && m.entity.entryId === c.entryId);

  for (const [kind, cases] of Object.entries(CLASSES)) {
    describe(kind, () => {
      for (const c of cases) {
        test(c.what, () => {
          const match = found(c);
          const best = index.screen(c.query, { threshold: 0, limit: 3 }).map((m) => `${m.entity.entryId} ${m.score} ${m.explanation.summary}`);
          assert.ok(match, `${c.query.name} must find ${c.list} ${c.entryId}; best: ${best.join(' | ')}`);
          if (c.says) assert.match(match.explanation.summary, c.says);
        });
      }
    });
  }

  test('an everyday name of common words alone finds nothing, while a distinctive one is a strong partial match', () => {
    assert.deepEqual(
      index.screen({ name: 'Production Association', kind: 'organization' }).map((m) => m.matchedName.full),
      [],
    );
    const [partial] = index.screen({ name: 'Kvant', kind: 'organization' }, { limit: 50 }).filter((m) => m.entity.entryId === '35343');
    assert.ok(partial && partial.score >= DEFAULT_THRESHOLD && partial.score < 1, String(partial?.score));
  });

  test('ordinary names stay clear', () => {
    for (const query of ORDINARY) {
      const alerts = index.screen(query).map((m) => `${m.matchedName.full} ${m.score}: ${m.explanation.summary}`);
      assert.deepEqual(alerts, [], query.name);
    }
  });
});
