import assert from 'node:assert/strict';
import { test } from 'node:test';
import { entityNamed } from '../../bench/matching/matchers.ts';
import { linkToUnEntries } from '../../bench/matching/sets/un-linking.ts';
import type { ListEntity } from '../../src/screening/model.ts';

const person = (id: string, name: string, extra: Partial<ListEntity> = {}): ListEntity => ({ ...entityNamed(name, 'person', id), ...extra });

test('UN positives link by normalised name, then token order; date of birth and nationality break ties; the rest is reported', () => {
  const un = [
    person('QDi.001', 'ABD AL-HAMID AL-MASLI'),
    person('QDi.002', 'MOHAMMED ALI', { datesOfBirth: [{ year: 1960 }], countries: ['IQ'] }),
    person('QDi.003', 'MOHAMMED ALI', { datesOfBirth: [{ year: 1971 }], countries: ['SY'] }),
    person('QDi.004', 'MOHAMMED ALI', { datesOfBirth: [{ year: 1971 }], countries: ['IQ'] }),
    { ...entityNamed('ALI TRADING', 'organization', 'QDe.001') },
  ];
  const { links, unlinked } = linkToUnEntries(
    [
      { name: 'Abd al Hamid al-Maslí' },
      { name: 'AL-MASLI ABD AL-HAMID' },
      { name: 'MOHAMMED ALI', dateOfBirth: { year: 1960 } },
      { name: 'MOHAMMED ALI', dateOfBirth: { year: 1971 }, nationality: 'SY' },
      { name: 'MOHAMMED ALI' },
      { name: 'ALI TRADING' },
    ],
    un,
  );
  assert.deepEqual(links, ['QDi.001', 'QDi.001', 'QDi.002', 'QDi.003', undefined, undefined]);
  assert.deepEqual(
    unlinked.map((u) => u.reason),
    ['3 UN entries fit (QDi.002, QDi.003, QDi.004)', 'no UN entry has this name'],
  );
});
