/**
 * A graph the evaluation cannot trust is refused whole, every problem pointed at, before anything
 * is evaluated; stakes are parsed exactly or not at all.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { easternDate } from '../../src/eastern-date.ts';
import { isCalendarDate } from '../../src/ownership/as-of.ts';
import { fromMillionths, THRESHOLD, toMillionths } from '../../src/ownership/percent.ts';
import type { OwnershipQuery } from '../../src/ownership/types.ts';
import { MAX_PROBLEMS, validateOwnershipQuery } from '../../src/ownership/validate.ts';
import { company, IN_FORCE, person, stake } from './graphs.ts';

const base = (changes: Partial<OwnershipQuery>): OwnershipQuery => ({
  target: 'T',
  asOf: IN_FORCE,
  entities: [person('X'), company('A'), company('T')],
  ownerships: [stake('X', 'A', 50), stake('A', 'T', 50)],
  ...changes,
});
const pointers = (query: OwnershipQuery) => validateOwnershipQuery(query).problems.map((p) => p.pointer);

describe('graph validation', () => {
  test('a valid graph has no problems, and hands its resolved ids on to the evaluation', () => {
    const result = validateOwnershipQuery(base({}));
    assert.deepEqual([result.problems, result.total, result.resolved?.indexOf.get('T')], [[], 0, 2]);
  });

  const cases: [string, Partial<OwnershipQuery>, string[]][] = [
    ['a target that is not an entity', { target: 'Q' }, ['/target']],
    ['a duplicate entity id', { entities: [person('X'), company('A'), company('T'), company('A')] }, ['/entities/3/id']],
    ['an unknown owner and an unknown owned', { ownerships: [stake('X', 'A', 50), stake('Z', 'Q', 10)] }, ['/ownerships/1/owner', '/ownerships/1/owned']],
    ['self-ownership', { ownerships: [stake('A', 'A', 10)] }, ['/ownerships/0/owned']],
    ['a natural person owned', { ownerships: [stake('A', 'X', 10)] }, ['/ownerships/0/owned']],
    ['a stake over 100', { ownerships: [stake('X', 'A', 100.5)] }, ['/ownerships/0/percent']],
    ['a negative stake', { ownerships: [stake('X', 'A', -1)] }, ['/ownerships/0/percent']],
    ['a stake with seven decimals', { ownerships: [stake('X', 'A', 33.3333333)] }, ['/ownerships/0/percent']],
    ['a stake too small to write in six decimals', { ownerships: [stake('X', 'A', 1e-7)] }, ['/ownerships/0/percent']],
    ['the same stake twice', { ownerships: [stake('X', 'A', 30), stake('X', 'A', 30)] }, ['/ownerships/1']],
    [
      'the same stake twice over overlapping dates',
      { ownerships: [stake('X', 'A', 30, { end_date: '2026-06-30' }), stake('X', 'A', 30, { start_date: '2026-06-30' })] },
      ['/ownerships/1'],
    ],
    ['an as_of that does not exist', { asOf: '2026-02-30' }, ['/as_of']],
    [
      'a start_date that does not exist, an end_date before the start',
      { ownerships: [stake('X', 'A', 30, { start_date: '2026-13-01' }), stake('A', 'T', 30, { start_date: '2026-05-01', end_date: '2026-04-30' })] },
      ['/ownerships/0/start_date', '/ownerships/1/end_date'],
    ],
  ];
  for (const [what, changes, expected] of cases) {
    test(`refuses ${what}`, () => assert.deepEqual(pointers(base(changes)), expected));
  }

  test('accepts what is not a duplicate: the same pair as ownership and control, or over dates that do not overlap', () => {
    const query = base({
      ownerships: [
        stake('X', 'A', 30),
        stake('X', 'A', null, { kind: 'control' }),
        stake('A', 'T', 60, { end_date: '2026-03-31' }),
        stake('A', 'T', 40, { start_date: '2026-04-01' }),
      ],
    });
    assert.deepEqual(pointers(query), []);
  });

  test('reports every problem at once, listing the first thousand and counting them all', () => {
    const ownerships = Array.from({ length: 1500 }, (_, i) => stake(`missing${i}`, 'T', 1));
    const result = validateOwnershipQuery(base({ ownerships }));
    assert.equal(result.problems.length, MAX_PROBLEMS);
    assert.equal(result.total, 1500);
  });
});

describe('exact percentages', () => {
  test('are held in millionths, parsed from the decimal text, never through binary rounding', () => {
    assert.deepEqual(
      [toMillionths(49.99), toMillionths(33.333333), toMillionths(0.000001), toMillionths(100), toMillionths(0)],
      [49_990_000, 33_333_333, 1, 100_000_000, 0],
    );
    assert.equal((toMillionths(21.9) as number) + (toMillionths(11.2) as number) + (toMillionths(16.9) as number), THRESHOLD);
    assert.equal(fromMillionths(49_990_000), 49.99);
    assert.ok(typeof toMillionths(Number.NaN) === 'object');
  });
});

describe('as_of', () => {
  test('today is the date in US Eastern time, not UTC', () => {
    assert.equal(easternDate(new Date('2026-11-10T04:30:00Z')), '2026-11-09', '23:30 in New York on the 9th');
    assert.equal(easternDate(new Date('2026-11-10T05:00:00Z')), '2026-11-10');
    assert.equal(easternDate(new Date('2026-07-01T03:59:00Z')), '2026-06-30', 'daylight saving time: UTC−4');
  });

  test('only days that exist are dates', () => {
    assert.deepEqual(['2024-02-29', '2026-02-29', '2026-1-01', '2026-11-22'].map(isCalendarDate), [true, false, false, true]);
  });
});
