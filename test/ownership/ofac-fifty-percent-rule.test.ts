/**
 * OFAC's 50 Percent Rule on every example the guidance and FAQ 401 give (as quoted in
 * ../shared/docs/ownership-rules.md §2), and the cases around them that practitioners get wrong:
 * multiplying along chains, adding unlisted or sectoral stakes, counting control.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { check, company, on, person, sdn, stake, warningCodes } from './graphs.ts';

describe('OFAC 50 Percent Rule: the examples of the guidance and FAQ 401', () => {
  test('2014 guidance: blocked persons X and Y owning 25% each make A blocked (aggregation, FAQ 399)', () => {
    const verdict = check('A', [person('X', sdn('SDGT')), person('Y', sdn('SDGT')), company('A')], [stake('X', 'A', 25), stake('Y', 'A', 25)]);
    assert.deepEqual([verdict.ofac.blocked, verdict.ofac.basis, verdict.ofac.aggregate_percent, verdict.ofac.determinate], [true, 'ownership', 50, true]);
    assert.deepEqual(
      verdict.ofac.contributors.map((c) => [c.owner, c.percent, c.basis]),
      [
        ['X', 25, 'listed'],
        ['Y', 25, 'listed'],
      ],
    );
  });

  test('FAQ 401 Example 1: X owns 50% of A, A owns 50% of B: B is blocked (X owns 50% of B indirectly, not 25%)', () => {
    const verdict = check('B', [person('X', sdn()), company('A'), company('B')], [stake('X', 'A', 50), stake('A', 'B', 50)]);
    assert.equal(verdict.ofac.blocked, true);
    assert.equal(verdict.ofac.aggregate_percent, 50, 'the whole stake of a blocked intermediate counts: never multiplied');
    assert.deepEqual(
      verdict.ofac.paths.map((p) => p.text),
      ['X [OFAC_SDN] —50%→ A [covered owners hold 50%] —50%→ B [covered owners hold 50%]'],
    );
  });

  test('FAQ 401 Example 2: X owns 50% of A and of B, which own 25% of C each: C is blocked by the aggregate of two blocked entities', () => {
    const verdict = check(
      'C',
      [person('X', sdn()), company('A'), company('B'), company('C')],
      [stake('X', 'A', 50), stake('X', 'B', 50), stake('A', 'C', 25), stake('B', 'C', 25)],
    );
    assert.deepEqual([verdict.ofac.blocked, verdict.ofac.aggregate_percent], [true, 50]);
    assert.deepEqual(
      verdict.ofac.contributors.map((c) => [c.owner, c.percent, c.basis]),
      [
        ['A', 25, 'ownership'],
        ['B', 25, 'ownership'],
      ],
    );
    assert.equal(verdict.ofac.paths.length, 2, 'one path through A, one through B');
  });

  test('FAQ 401 Example 3: X owns 50% of A and 10% of B, A owns 40% of B: B is blocked (10% direct + 40% through A)', () => {
    const verdict = check('B', [person('X', sdn()), company('A'), company('B')], [stake('X', 'A', 50), stake('X', 'B', 10), stake('A', 'B', 40)]);
    assert.deepEqual([verdict.ofac.blocked, verdict.ofac.aggregate_percent], [true, 50]);
    assert.deepEqual(
      verdict.ofac.paths.map((p) => [p.contribution_percent, p.hops.map((h) => h.entity)]),
      [
        [40, ['X', 'A', 'B']],
        [10, ['X', 'B']],
      ],
      'paths in order of what they add to the target',
    );
  });

  test('partly owned intermediates: X owns 25% of A and of B, which own 50% of C each: X owns none of C indirectly', () => {
    const verdict = check(
      'C',
      [person('X', sdn()), company('A'), company('B'), company('C')],
      [stake('X', 'A', 25), stake('X', 'B', 25), stake('A', 'C', 50), stake('B', 'C', 50)],
    );
    assert.deepEqual([verdict.ofac.blocked, verdict.ofac.aggregate_percent, verdict.ofac.determinate], [false, 0, true]);
    assert.deepEqual(verdict.ofac.paths, []);
  });

  test('the 2026 paraphrase: X owns 50% of A and 25% of B, A and B own 25% of C each: only A is blocked, and C is not', () => {
    const verdict = check(
      'C',
      [person('X', sdn()), company('A'), company('B'), company('C')],
      [stake('X', 'A', 50), stake('X', 'B', 25), stake('A', 'C', 25), stake('B', 'C', 25)],
    );
    assert.deepEqual([verdict.ofac.blocked, verdict.ofac.aggregate_percent], [false, 25]);
    assert.deepEqual(
      verdict.entities.filter((e) => e.ofac_blocked).map((e) => e.id),
      ['X', 'A'],
    );
    assert.ok(warningCodes(verdict).includes('minority_ownership'), 'a minority stake of blocked persons is a caution');
  });

  test('FAQ 398: control without ownership does not block, and is reported as a caution', () => {
    const verdict = check(
      'A',
      [person('X', sdn()), company('A')],
      [stake('X', 'A', 10), stake('X', 'A', null, { kind: 'control' }), stake('X', 'A', 60, { kind: 'director' })],
    );
    assert.deepEqual([verdict.ofac.blocked, verdict.ofac.aggregate_percent, verdict.ofac.determinate], [false, 10, true]);
    const caution = verdict.warnings.find((w) => w.code === 'control_not_ownership');
    assert.ok(caution, JSON.stringify(verdict.warnings));
    assert.deepEqual(caution.entities, ['X']);
    assert.match(caution.detail, /control, director/);
  });

  test('FAQ 402: once the blocked stake is divested below 50% (its end_date before as_of), the entity is no longer blocked', () => {
    const graph = [person('X', sdn()), person('Y'), company('A')];
    const stakes = [
      stake('X', 'A', 60, { end_date: '2026-03-31' }),
      stake('X', 'A', 40, { start_date: '2026-04-01' }),
      stake('Y', 'A', 60, { end_date: '2026-03-31' }),
    ];
    assert.equal(check('A', graph, stakes, '2026-03-31').ofac.blocked, true, 'on the last day of the 60% stake');
    const after = check('A', graph, stakes, '2026-04-01');
    assert.deepEqual([after.ofac.blocked, after.ofac.aggregate_percent], [false, 40]);
    assert.ok(warningCodes(after).includes('edges_not_in_effect'));
  });
});

describe('OFAC: what is aggregated, and what never is', () => {
  test('stakes of persons blocked under different programs are added', () => {
    const verdict = check('A', [person('X', sdn('IRAN')), company('Y', sdn('VENEZUELA-EO13850')), company('A')], [stake('X', 'A', 30), stake('Y', 'A', 20)]);
    assert.equal(verdict.ofac.blocked, true);
  });

  test('unlisted shareholders are never added: three blocked stakes of 15% stay at 45%', () => {
    const verdict = check(
      'A',
      [person('X1', sdn()), person('X2', sdn()), person('X3', sdn()), person('P'), company('A')],
      [stake('X1', 'A', 15), stake('X2', 'A', 15), stake('X3', 'A', 15), stake('P', 'A', 55)],
    );
    assert.deepEqual([verdict.ofac.blocked, verdict.ofac.aggregate_percent], [false, 45]);
  });

  test('sectoral (SSI) and other non-SDN stakes are not blocking, nor added to SDN stakes', () => {
    const verdict = check(
      'A',
      [company('S', on('OFAC_SSI', 'UKRAINE-EO13662')), company('N', on('OFAC_CONS')), person('X', sdn()), company('A')],
      [stake('S', 'A', 30), stake('N', 'A', 30), stake('X', 'A', 25)],
    );
    assert.deepEqual([verdict.ofac.blocked, verdict.ofac.aggregate_percent], [false, 25]);
    const uncounted = verdict.warnings.find((w) => w.code === 'listed_not_counted');
    assert.deepEqual(uncounted?.entities, ['S', 'N']);
  });

  test('BIS lists do not block under OFAC: an Entity List owner of 100% leaves OFAC clear', () => {
    const verdict = check('A', [company('E', on('BIS_EL')), company('A')], [stake('E', 'A', 100)]);
    assert.deepEqual([verdict.ofac.blocked, verdict.bis.restricted], [false, true]);
  });

  test('a program configured as not triggering the rule (31 CFR 550.406) does not block owned entities, and is empty by default', () => {
    const graph = [person('X', sdn('ETHIOPIA-EO14046')), company('A')];
    assert.equal(check('A', graph, [stake('X', 'A', 100)]).ofac.blocked, true);
    const configured = check('A', graph, [stake('X', 'A', 100)], undefined, { ofacNonTriggerPrograms: new Set(['ETHIOPIA-EO14046']) });
    assert.equal(configured.ofac.blocked, false);
    assert.equal(configured.entities.find((e) => e.id === 'X')?.ofac_blocked, true, 'the SDN itself stays blocked');
  });

  test('ownership flows downward only: parents and sisters of a blocked entity are not blocked', () => {
    const verdict = check('P', [company('P'), company('A', sdn()), company('S')], [stake('P', 'A', 100), stake('P', 'S', 100)]);
    assert.equal(verdict.ofac.blocked, false);
    assert.equal(check('S', [company('P'), company('A', sdn()), company('S')], [stake('P', 'A', 100), stake('P', 'S', 100)]).ofac.blocked, false);
  });
});

describe('OFAC: listed targets, natural persons, dates', () => {
  test('a listed target is blocked whatever its ownership, and its aggregate is still reported', () => {
    const verdict = check('A', [person('X', sdn()), company('A', sdn('IRAN'))], [stake('X', 'A', 20)]);
    assert.deepEqual([verdict.ofac.blocked, verdict.ofac.basis, verdict.ofac.aggregate_percent], [true, 'listed', 20]);
  });

  test('a natural person cannot be owned: blocked only by their own listing, aggregates null', () => {
    const listed = check('P', [person('P', sdn('SDGT'))], []);
    assert.deepEqual(
      [listed.ofac.blocked, listed.ofac.basis, listed.ofac.aggregate_percent, listed.ofac.aggregate_percent_upper],
      [true, 'listed', null, null],
    );
    assert.deepEqual([listed.bis.restricted, listed.bis.aggregate_percent, listed.bis.foreign_entity], [true, null, false]);
    const clear = check('Q', [person('Q'), company('A', sdn())], [stake('Q', 'A', 10)]);
    assert.deepEqual([clear.ofac.blocked, clear.ofac.basis, clear.ofac.aggregate_percent, clear.ofac.paths], [false, 'none', null, []]);
  });

  test('an as_of before the 2014 aggregation guidance is flagged', () => {
    const verdict = check('A', [person('X', sdn()), company('A')], [stake('X', 'A', 50)], '2014-08-12');
    assert.ok(warningCodes(verdict).includes('as_of_before_aggregation_guidance'));
    assert.ok(!warningCodes(check('A', [person('X', sdn()), company('A')], [stake('X', 'A', 50)], '2014-08-13')).includes('as_of_before_aggregation_guidance'));
  });
});
