/**
 * The parts of the evaluation that decide whether an answer can be trusted: unknown stakes
 * (lower and upper bounds, determinate, Red Flag 29), cycles (they end, and never justify
 * themselves), long chains (no dilution, no stack overflow), and exact arithmetic at 50 %.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluateOwnership } from '../../src/ownership/evaluate.ts';
import { check, company, IN_FORCE, on, person, sdn, stake, warningCodes } from './graphs.ts';

describe('unknown percentages', () => {
  test('a covered owner with a stake of unknown size: not blocked, not determinate, both bounds reported, and Red Flag 29 for BIS', () => {
    const unknown = check(
      'T',
      [company('S', sdn()), company('S2', sdn()), person('P'), company('T')],
      [stake('S', 'T', 30), stake('S2', 'T', null), stake('P', 'T', 10)],
    );
    assert.deepEqual(
      [unknown.ofac.blocked, unknown.ofac.determinate, unknown.ofac.aggregate_percent, unknown.ofac.aggregate_percent_upper],
      [false, false, 30, 90],
      'S2 may hold up to the 60% the known stakes leave',
    );
    assert.deepEqual([unknown.bis.restricted, unknown.bis.determinate, unknown.bis.red_flag_29], [false, false, true]);
    assert.deepEqual(
      unknown.ofac.contributors.map((c) => [c.owner, c.percent, c.certain]),
      [
        ['S', 30, true],
        ['S2', null, false],
      ],
    );
    assert.ok(
      unknown.ofac.paths.some((p) => !p.certain && p.text.includes('—?%→')),
      'the paths show how the target could be covered',
    );
    assert.ok(warningCodes(unknown).includes('unknown_percent'));
  });

  test('when the known stakes leave too little room, unknown stakes cannot change the answer: determinate', () => {
    const verdict = check('T', [company('S', sdn()), person('P'), company('T')], [stake('S', 'T', null), stake('P', 'T', 55)]);
    assert.deepEqual([verdict.ofac.blocked, verdict.ofac.determinate, verdict.ofac.aggregate_percent_upper, verdict.bis.red_flag_29], [false, true, 45, false]);
  });

  test('known stakes already at 50% decide, whatever the unknown ones', () => {
    const verdict = check('T', [company('S', sdn()), company('S2', sdn()), company('T')], [stake('S', 'T', 50), stake('S2', 'T', null)]);
    assert.deepEqual([verdict.ofac.blocked, verdict.ofac.determinate, verdict.bis.restricted, verdict.bis.red_flag_29], [true, true, true, false]);
  });

  test('an unknown stake held by an unlisted owner changes nothing', () => {
    const verdict = check('T', [company('S', sdn()), person('P'), company('T')], [stake('S', 'T', 40), stake('P', 'T', null)]);
    assert.deepEqual([verdict.ofac.blocked, verdict.ofac.determinate, verdict.bis.red_flag_29], [false, true, false]);
  });

  test('uncertainty travels down a chain: an intermediate possibly covered makes its subsidiary possibly covered', () => {
    const verdict = check('T', [company('S', sdn()), company('A'), company('T')], [stake('S', 'A', null), stake('A', 'T', 80)]);
    assert.deepEqual([verdict.ofac.blocked, verdict.ofac.determinate, verdict.ofac.aggregate_percent, verdict.bis.red_flag_29], [false, false, 0, true]);
    assert.deepEqual(verdict.ofac.contributors, [{ owner: 'A', percent: 80, basis: 'ownership', certain: false }]);
    const entityA = verdict.entities.find((e) => e.id === 'A');
    assert.deepEqual([entityA?.ofac_blocked, entityA?.ofac_determinate], [false, false]);
  });

  test('Red Flag 29 is for foreign entities only: a U.S. target with unknown listed ownership has none', () => {
    const verdict = check('T', [company('E', on('BIS_EL')), { id: 'T', type: 'entity', country: 'US' }], [stake('E', 'T', null)]);
    assert.deepEqual([verdict.bis.restricted, verdict.bis.determinate, verdict.bis.red_flag_29], [false, true, false]);
  });
});

describe('cycles', () => {
  test('two unlisted companies owning 50% of each other are not covered: a cycle never justifies itself', () => {
    const verdict = check('A', [company('A'), company('B')], [stake('A', 'B', 50), stake('B', 'A', 50)]);
    assert.deepEqual([verdict.ofac.blocked, verdict.bis.restricted], [false, false]);
    const cycle = verdict.warnings.find((w) => w.code === 'cycle_detected');
    assert.deepEqual(cycle?.entities, ['A', 'B']);
  });

  test('a cycle is resolved when a covered owner outside it tips one member, and the cover then flows around it', () => {
    const verdict = check('B', [person('X', sdn()), company('A'), company('B')], [stake('X', 'A', 10), stake('B', 'A', 40), stake('A', 'B', 50)]);
    assert.equal(verdict.ofac.blocked, false, '10% is not enough to tip A');
    const tipped = check('B', [person('X', sdn()), company('A'), company('B')], [stake('X', 'A', 50), stake('B', 'A', 40), stake('A', 'B', 50)]);
    assert.equal(tipped.ofac.blocked, true);
    assert.deepEqual(
      tipped.ofac.paths.map((p) => p.hops.map((h) => h.entity)),
      [['X', 'A', 'B']],
      'the explanation never goes round the cycle',
    );
  });

  test("ownership-rules.md §4.2: an SDN holds 45% of A, A's wholly owned subsidiary holds 48% of A: A is not blocked (FAQ 401 reading), with a cycle flag", () => {
    const verdict = check('A', [person('X', sdn()), company('A'), company('S')], [stake('X', 'A', 45), stake('S', 'A', 48), stake('A', 'S', 100)]);
    assert.deepEqual([verdict.ofac.blocked, verdict.ofac.aggregate_percent, verdict.ofac.determinate], [false, 45, true]);
    assert.ok(warningCodes(verdict).includes('cycle_detected'));
  });

  test('a listed target inside a cycle: its paths never climb back to itself', () => {
    const verdict = check('T', [company('T', sdn()), company('A')], [stake('T', 'A', 60), stake('A', 'T', 30)]);
    assert.deepEqual([verdict.ofac.blocked, verdict.ofac.basis, verdict.ofac.aggregate_percent], [true, 'listed', 30]);
    assert.ok(verdict.ofac.paths.every((p) => p.hops.filter((h) => h.entity === 'T').length === 1));
  });

  test('a ring of 10,000 companies ends, and stays uncovered until tipped', () => {
    const size = 10_000;
    const entities = [person('X', sdn()), ...Array.from({ length: size }, (_, i) => company(`C${i}`))];
    const ring = Array.from({ length: size }, (_, i) => stake(`C${i}`, `C${(i + 1) % size}`, 50));
    assert.equal(check('C0', entities, ring).ofac.blocked, false);
    const tipped = check('C0', entities, [...ring, stake('X', 'C1', 50)]);
    assert.equal(tipped.ofac.blocked, true);
    assert.equal(tipped.ofac.paths[0]?.complete, false, 'a chain of 10,000 hops is cut');
    assert.ok((tipped.ofac.paths[0]?.hops.length ?? 0) <= 101);
    assert.equal(tipped.warnings.find((w) => w.code === 'cycle_detected')?.count, size);
  });
});

describe('deep chains and the 50% boundary', () => {
  const chain = (percents: number[]) => ({
    entities: [person('X', sdn()), ...percents.map((_, i) => company(`L${i + 1}`))],
    stakes: percents.map((p, i) => stake(i === 0 ? 'X' : `L${i}`, `L${i + 1}`, p)),
  });

  test('a 10-level chain of 50% links is covered at every level: no dilution', () => {
    const { entities, stakes } = chain(Array(10).fill(50));
    const verdict = check('L10', entities, stakes);
    assert.deepEqual([verdict.ofac.blocked, verdict.ofac.aggregate_percent, verdict.bis.restricted], [true, 50, true]);
    assert.equal(verdict.ofac.paths[0]?.hops.length, 11);
  });

  test('one 49.99% link breaks the chain for everything below it', () => {
    const percents = Array(10).fill(50);
    percents[4] = 49.99;
    const { entities, stakes } = chain(percents);
    const verdict = check('L10', entities, stakes);
    assert.equal(verdict.ofac.blocked, false);
    assert.deepEqual(
      verdict.entities.filter((e) => e.ofac_blocked).map((e) => e.id),
      ['X', 'L1', 'L2', 'L3', 'L4'],
    );
  });

  test('a chain of 100,000 links evaluates without overflowing the stack', () => {
    const { entities, stakes } = chain(Array(100_000).fill(100));
    const verdict = evaluateOwnership({ target: 'L100000', asOf: IN_FORCE, entities, ownerships: stakes });
    assert.equal(verdict.ofac.blocked, true);
  });

  test('49.99% is not covered; 49.99% + 0.01% is exactly 50% and is', () => {
    const graph = [person('X', sdn()), person('Y', sdn()), company('T')];
    assert.deepEqual(
      [check('T', graph, [stake('X', 'T', 49.99)]).ofac.blocked, check('T', graph, [stake('X', 'T', 49.99)]).ofac.aggregate_percent],
      [false, 49.99],
    );
    const sum = check('T', graph, [stake('X', 'T', 49.99), stake('Y', 'T', 0.01)]);
    assert.deepEqual([sum.ofac.blocked, sum.ofac.aggregate_percent], [true, 50]);
    assert.equal(check('T', graph, [stake('X', 'T', 49.999999)]).ofac.blocked, false, 'six decimals below 50 stay below');
  });

  test('float traps: 21.9% + 11.2% + 16.9% is exactly 50% (floating point says 49.99999999999999)', () => {
    assert.notEqual(21.9 + 11.2 + 16.9, 50, 'the trap is real');
    const graph = [person('A', sdn()), person('B', sdn()), person('C', sdn()), company('T')];
    const verdict = check('T', graph, [stake('A', 'T', 21.9), stake('B', 'T', 11.2), stake('C', 'T', 16.9)]);
    assert.deepEqual([verdict.ofac.blocked, verdict.ofac.aggregate_percent, verdict.bis.restricted], [true, 50, true]);
  });

  test('known stakes over 100% are used as given and flagged', () => {
    const verdict = check('T', [person('X', sdn()), person('P'), company('T')], [stake('X', 'T', 50), stake('P', 'T', 70)]);
    assert.equal(verdict.ofac.blocked, true);
    const warning = verdict.warnings.find((w) => w.code === 'ownership_over_100');
    assert.match(warning?.detail ?? '', /T: 120%/);
  });
});

describe('paths', () => {
  test('at most 50, largest contributions first, with a flag when more exist', () => {
    const owners = Array.from({ length: 60 }, (_, i) => person(`X${i}`, sdn()));
    const verdict = check(
      'T',
      [...owners, company('T')],
      owners.map((o, i) => stake(o.id, 'T', i < 10 ? 1.5 : 1)),
    );
    assert.equal(verdict.ofac.paths.length, 50);
    assert.equal(verdict.ofac.paths_truncated, true);
    assert.deepEqual(
      verdict.ofac.paths.slice(0, 10).map((p) => p.contribution_percent),
      Array(10).fill(1.5),
    );
    assert.equal(verdict.ofac.aggregate_percent, 65);
    assert.equal(verdict.ofac.contributors.length, 60, 'contributors are all listed');
  });
});
