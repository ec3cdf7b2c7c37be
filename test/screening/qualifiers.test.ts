/**
 * What a date of birth, a country and a type do to a match: a date close to the listed one (a
 * year or two off, day and month swapped, another calendar) is a slip, not another person; a
 * disagreeing fact lowers a score but never takes a name at or above the alert threshold below it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseOfacLegacy } from '../../src/screening/lists/ofac-legacy.ts';
import type { QualifierExplanation, ScreeningMatch, SubjectQuery } from '../../src/screening/match-types.ts';
import { emptyEntity, type ListEntity, type PartialDate } from '../../src/screening/model.ts';
import { buildScreeningIndex, DEFAULT_THRESHOLD } from '../../src/screening/screening-index.ts';
import { readListFile, skipWithoutListData } from '../helpers/list-data.ts';

const dob = (match: ScreeningMatch | undefined) => match?.explanation.qualifiers.find((q) => q.factor === 'date_of_birth');
const hold = (match: ScreeningMatch | undefined) => match?.explanation.qualifiers.find((q) => q.factor === 'alert_threshold');
const plusYears = (d: PartialDate, years: number): PartialDate => ({ ...d, year: d.year + years });

describe('a date of birth on the real SDN list, against the exact listed name', { skip: skipWithoutListData() }, () => {
  const { entities } = parseOfacLegacy('OFAC_SDN', { main: readListFile('ofac_sdn_2024-05/sdn.csv') });
  const sdn = buildScreeningIndex(entities);
  // Every 25th person listed with one full date of birth: a few hundred, from every program.
  const people = entities
    .filter((e) => e.type === 'person' && e.datesOfBirth.length === 1 && e.datesOfBirth[0]?.day !== undefined && !e.datesOfBirth[0].circa)
    .filter((_, i) => i % 25 === 0);
  const found = (entity: ListEntity, dateOfBirth?: PartialDate) =>
    sdn
      .screen({ name: entity.names[0]?.full as string, kind: 'person', ...(dateOfBirth && { dateOfBirth }) }, { limit: 50 })
      .find((m) => m.entity.entryId === entity.entryId);

  test('off by one year, off by two, day and month swapped, or absent: each still alerts, the date of birth explained', () => {
    assert.ok(people.length > 100, String(people.length));
    const misses: string[] = [];
    for (const entity of people) {
      const listed = entity.datesOfBirth[0] as PartialDate;
      const variants: [string, PartialDate | undefined, QualifierExplanation['effect'][], RegExp][] = [
        ['absent', undefined, ['unknown'], /no date of birth given/],
        ['a year later', plusYears(listed, 1), ['neutral'], /1 year apart, within 2 years, read as a data-entry slip/],
        ['a year earlier', plusYears(listed, -1), ['neutral'], /1 year apart/],
        ['two years later', plusYears(listed, 2), ['neutral'], /2 years apart/],
        ['only the year, one off', { year: listed.year - 1 }, ['neutral'], /1 year apart/],
      ];
      if ((listed.day as number) <= 12 && listed.day !== listed.month) {
        variants.push([
          'day and month swapped',
          { year: listed.year, month: listed.day as number, day: listed.month as number },
          ['corroborates'],
          /day and month swapped/,
        ]);
      }
      for (const [what, date, effects, detail] of variants) {
        const match = found(entity, date);
        const qualifier = dob(match);
        if (!match || match.score < DEFAULT_THRESHOLD)
          misses.push(`${entity.entryId} ${entity.names[0]?.full} ${what}: ${match ? match.explanation.summary : 'not returned'}`);
        else if (!qualifier || !effects.includes(qualifier.effect) || !detail.test(qualifier.detail))
          misses.push(`${entity.entryId} ${what}: ${JSON.stringify(qualifier)}`);
        else if (hold(match)) misses.push(`${entity.entryId} ${what}: held, although nothing disagreed`);
      }
    }
    assert.deepEqual(misses, []);
  });

  test('ten years off contradicts and lowers the score, yet an exact name is held at the alert threshold, and says why', () => {
    for (const entity of people.slice(0, 40)) {
      const listed = entity.datesOfBirth[0] as PartialDate;
      const match = found(entity, plusYears(listed, 10));
      assert.ok(match, `${entity.entryId} ${entity.names[0]?.full} is still found`);
      assert.equal(dob(match)?.effect, 'contradicts', match.explanation.summary);
      assert.match(dob(match)?.detail ?? '', /more than 2 years apart/);
      assert.ok(match.score < (found(entity)?.score ?? 0), 'lower than without a date');
      assert.equal(match.score, DEFAULT_THRESHOLD, match.explanation.summary);
      assert.equal(hold(match)?.effect, 'holds');
      assert.match(
        match.explanation.summary,
        /held at the alert threshold 0\.80 .*an exact name \(1\.00\) is not cleared by a disagreeing date of birth alone; the organization's clearing rules may clear it/,
      );
    }
  });
});

describe('a date of birth, a country and a type against invented entries', () => {
  const person = (entryId: string, name: string, extra: Partial<ListEntity>) =>
    emptyEntity({ list: 'OFAC_SDN', entryId, type: 'person', names: [{ full: name, kind: 'primary' }], ...extra });
  const entities = [
    person('1', 'TALIBOV, Rustam Nazarovich', { datesOfBirth: [{ year: 1984, month: 1, day: 8 }], countries: ['TJ'] }),
    person('2', 'QARAVI, Hamid Reza', { datesOfBirth: [{ year: 1962, circa: true }] }),
    person('3', 'ZAKHAROV, Ilya Petrovich', { datesOfBirth: [{ year: 1970 }, { year: 1971 }] }),
    emptyEntity({ list: 'UN_SC', entryId: '4', type: 'vessel', names: [{ full: 'MERIDIAN GLORY', kind: 'primary' }] }),
    emptyEntity({ list: 'BIS_EL', entryId: '5', type: 'organization', names: [{ full: 'VOSTOK PRECISION OPTICS', kind: 'primary' }], countries: ['RU'] }),
  ];
  const index = buildScreeningIndex(entities);
  const screen = (query: Partial<SubjectQuery>, options = {}) => index.screen({ name: 'Rustam Nazarovich Talibov', kind: 'person', ...query }, options)[0];

  test('a year in the Solar or lunar Hijri calendar is read as the listed year written another way', () => {
    assert.match(
      dob(screen({ dateOfBirth: { year: 1363 } }))?.detail ?? '',
      /1363 in the Solar Hijri calendar is 1984\/1985, read as the same year written in another calendar/,
    );
    assert.match(dob(screen({ dateOfBirth: { year: 1404 } }))?.detail ?? '', /1404 in the lunar Hijri calendar is 1983\/1984/);
    assert.equal(dob(screen({ dateOfBirth: { year: 1363 } }))?.effect, 'neutral');
    assert.equal(dob(screen({ dateOfBirth: { year: 1340 } }))?.effect, 'contradicts', 'a year no calendar maps to the listed one');
  });

  test('the same year with another day is close, the exact date corroborates most, a swapped one less', () => {
    const exact = screen({ dateOfBirth: { year: 1984, month: 1, day: 8 } }, { threshold: 0 });
    const swapped = screen({ dateOfBirth: { year: 1984, month: 8, day: 1 } }, { threshold: 0 });
    const otherDay = screen({ dateOfBirth: { year: 1984, month: 3, day: 17 } }, { threshold: 0 });
    assert.deepEqual(
      [exact, swapped, otherDay].map((m) => dob(m)?.effect),
      ['corroborates', 'corroborates', 'neutral'],
    );
    assert.match(dob(otherDay)?.detail ?? '', /the same year with another day or month, read as a data-entry slip/);
    const weaker = (date: PartialDate) => screen({ name: 'Rustam Talibaev', dateOfBirth: date }, { threshold: 0 })?.score ?? 0;
    assert.ok(weaker({ year: 1984, month: 1, day: 8 }) > weaker({ year: 1984, month: 8, day: 1 }));
    assert.ok(weaker({ year: 1984, month: 8, day: 1 }) > weaker({ year: 1984, month: 3, day: 17 }));
  });

  test('a circa year keeps its three years either way, and two more are close', () => {
    const effect = (year: number) => dob(index.screen({ name: 'Hamid Reza Qaravi', kind: 'person', dateOfBirth: { year } }, { threshold: 0 })[0])?.effect;
    assert.deepEqual([1959, 1965, 1967, 1968, 1955].map(effect), ['corroborates', 'corroborates', 'neutral', 'contradicts', 'contradicts']);
  });

  test('with several listed dates, the closest decides; far from all of them contradicts, naming each', () => {
    const qualifier = (year: number) => dob(index.screen({ name: 'Ilya Petrovich Zakharov', kind: 'person', dateOfBirth: { year } }, { threshold: 0 })[0]);
    assert.equal(qualifier(1971)?.effect, 'corroborates');
    assert.equal(qualifier(1973)?.effect, 'neutral');
    assert.match(qualifier(1990)?.detail ?? '', /the entry gives 1970, 1971: more than 2 years from each/);
  });

  test('a truly different date lowers an exact name to the threshold and no further, while a weaker name with that date falls below', () => {
    const farOff = { year: 1994, month: 1, day: 8 };
    const exact = screen({ dateOfBirth: farOff });
    assert.equal(exact?.score, DEFAULT_THRESHOLD);
    assert.equal(hold(exact)?.contribution, 0.05, 'the name 1.00 less 0.25 for the date, held at 0.80');

    const weakName = 'Rustam Talibov Karimovich'; // another father's name than the listed one
    const nameOnly = screen({ name: weakName }, { threshold: 0 });
    assert.ok(nameOnly && nameOnly.score < DEFAULT_THRESHOLD, `the weaker name scores under the threshold by itself: ${nameOnly?.score}`);
    const corroborated = screen({ name: weakName, dateOfBirth: { year: 1984, month: 1, day: 8 } }, { threshold: 0 });
    const contradicted = screen({ name: weakName, dateOfBirth: farOff }, { threshold: 0 });
    assert.ok((corroborated?.score ?? 0) > nameOnly.score);
    assert.ok(contradicted && contradicted.score < nameOnly.score && hold(contradicted) === undefined, JSON.stringify(contradicted?.explanation.qualifiers));
    assert.equal(screen({ name: weakName, dateOfBirth: farOff }), undefined, 'not reported at the threshold');
  });

  test('a disagreeing country and type are held the same way, each named', () => {
    const both = screen({ dateOfBirth: { year: 1960 }, countries: ['FR'] });
    assert.equal(both?.score, DEFAULT_THRESHOLD);
    assert.match(hold(both)?.detail ?? '', /a disagreeing date of birth and country alone/);
    const vessel = index.screen({ name: 'Meridian Glory', kind: 'organization' }, { threshold: 0.95 })[0];
    assert.deepEqual([vessel?.score, hold(vessel)?.effect], [0.95, 'holds']);
    assert.match(hold(vessel)?.detail ?? '', /a disagreeing type alone/);
  });

  test('each list has its own alert threshold, and matches are reported below it down to the floor', () => {
    const thresholds: Record<string, number> = { OFAC_SDN: 0.905, BIS_EL: 0.95 };
    const options = { threshold: (list: string) => thresholds[list] ?? 0.8, reportFloor: 0.6 };
    const person = screen({ dateOfBirth: { year: 1950 } }, options);
    assert.equal(person?.score, 0.905, "held at its own list's threshold");
    assert.match(hold(person)?.detail ?? '', /held at the alert threshold 0\.905 /);
    const company = index.screen({ name: 'Vostok Precision Optics', kind: 'organization', countries: ['CN'] }, options)[0];
    assert.deepEqual([company?.entity.entryId, company?.score], ['5', 0.95]);
    const near = index.screen({ name: 'Vostock Precission Optic', kind: 'organization', countries: ['CN'] }, options)[0];
    assert.ok(near && near.score < 0.95 && near.score >= 0.6 && hold(near) === undefined, JSON.stringify(near?.explanation.summary));
    assert.equal(
      index.screen({ name: 'Vostock Precission Optic', kind: 'organization', countries: ['CN'] }, { threshold: options.threshold })[0],
      undefined,
      'without a floor, nothing below the threshold',
    );
  });
});
