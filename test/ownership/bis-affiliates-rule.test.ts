/**
 * The BIS Affiliates Rule (Supp. No. 8 to Part 744): which listings count (Entity List, MEU List,
 * SDNs under the §744.8(a)(1) programs), foreign entities only, and its dated status on both
 * sides of every date in the rule-status table.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { affiliatesRuleWindow, BIS_AFFILIATES_RULE, type RuleWindow } from '../../src/ownership/rule-status.ts';
import { check, company, IN_FORCE, on, person, SUSPENDED, sdn, stake, usCompany, warningCodes } from './graphs.ts';

const owned60 = (owner: ReturnType<typeof company>, asOf = IN_FORCE) => check('T', [owner, company('T')], [stake(owner.id, 'T', 60)], asOf);

describe('BIS Affiliates Rule: the dates', () => {
  const cases: [string, string][] = [
    ['2025-09-28', 'not_in_effect'],
    ['2025-09-29', 'in_force'],
    ['2025-11-09', 'in_force'],
    ['2025-11-10', 'suspended'],
    ['2026-11-09', 'suspended'],
    ['2026-11-10', 'in_force'],
  ];
  for (const [asOf, status] of cases) {
    test(`on ${asOf} the rule is ${status}`, () => {
      const verdict = owned60(company('E', on('BIS_EL')), asOf);
      assert.equal(verdict.bis.affiliates_rule_status, status);
      assert.equal(verdict.bis.restricted, status === 'in_force', 'an affiliate is restricted only while the rule is in force');
      assert.equal(verdict.bis.aggregate_percent, status === 'in_force' ? 60 : null, 'no aggregate on a date the rule is not operative');
      assert.equal(verdict.entities.find((e) => e.id === 'E')?.bis_restricted, true, 'the listed party itself always is');
    });
  }

  test('the table covers every day once, in order, each window with its source', () => {
    const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    assert.equal(BIS_AFFILIATES_RULE[0]?.from, null);
    assert.equal(BIS_AFFILIATES_RULE.at(-1)?.to, null);
    for (let i = 1; i < BIS_AFFILIATES_RULE.length; i++) {
      const [before, after] = [BIS_AFFILIATES_RULE[i - 1] as RuleWindow, BIS_AFFILIATES_RULE[i] as RuleWindow];
      assert.equal(after.from, dayAfter(before.to as string), `window ${i} starts the day after window ${i - 1} ends`);
    }
    assert.ok(BIS_AFFILIATES_RULE.every((w) => w.source.length > 20));
    assert.deepEqual(affiliatesRuleWindow('2026-11-10'), BIS_AFFILIATES_RULE.at(-1));
  });

  test('a future extension of the stay is a data edit: the same graph answers from the table it is given', () => {
    const extended: RuleWindow[] = [
      ...BIS_AFFILIATES_RULE.slice(0, 2),
      { from: '2025-11-10', to: '2027-11-09', status: 'suspended', scheduled: false, source: 'a hypothetical extension of the stay by one year' },
      { from: '2027-11-10', to: null, status: 'in_force', scheduled: true, source: 'the hypothetical end of the extended stay' },
    ];
    const verdict = check('T', [company('E', on('BIS_EL')), company('T')], [stake('E', 'T', 60)], IN_FORCE, { affiliatesRule: extended });
    assert.deepEqual([verdict.bis.affiliates_rule_status, verdict.bis.restricted, verdict.bis.affiliates_rule_window.to], ['suspended', false, '2027-11-09']);
  });

  test('while suspended only listed parties are restricted; Red Flag 29 and paths are stayed with the rule', () => {
    const stakes = [stake('E', 'T', 40), stake('F', 'T', null)];
    const graph = [company('E', on('BIS_EL')), company('F', on('BIS_EL')), company('T')];
    assert.equal(check('T', graph, stakes).bis.red_flag_29, true, 'in force, the unknown stake is Red Flag 29');
    const verdict = check('T', graph, stakes, SUSPENDED);
    assert.deepEqual(
      [verdict.bis.restricted, verdict.bis.red_flag_29, verdict.bis.paths, verdict.bis.contributors, verdict.bis.inherited_from],
      [false, false, [], [], []],
    );
    const listed = check('E', [company('E', on('BIS_MEU'))], [], SUSPENDED);
    assert.deepEqual([listed.bis.restricted, listed.bis.basis, listed.bis.inherited_from], [true, 'listed', [{ entity: 'E', lists: ['BIS_MEU'] }]]);
  });

  test('the Temporary General License period is flagged for affiliates, never changing their status', () => {
    const inTgl = owned60(company('E', on('BIS_EL')), '2025-10-15');
    assert.equal(inTgl.bis.restricted, true);
    assert.ok(warningCodes(inTgl).includes('tgl_period'));
    assert.ok(!warningCodes(owned60(company('E', on('BIS_EL')))).includes('tgl_period'));
  });
});

describe('BIS Affiliates Rule: which lists and programs count (15 CFR 744.8(a)(1))', () => {
  test('Entity List and MEU List owners count, and their stakes are added across the two lists', () => {
    const verdict = check('T', [company('E', on('BIS_EL')), company('M', on('BIS_MEU')), company('T')], [stake('E', 'T', 30), stake('M', 'T', 20)]);
    assert.deepEqual([verdict.bis.restricted, verdict.bis.basis, verdict.bis.aggregate_percent], [true, 'ownership', 50]);
    assert.deepEqual(verdict.bis.inherited_from, [
      { entity: 'E', lists: ['BIS_EL'] },
      { entity: 'M', lists: ['BIS_MEU'] },
    ]);
    assert.equal(verdict.ofac.blocked, false);
  });

  for (const program of ['RUSSIA-EO14024', 'SDGT', 'NPWMD', 'BELARUS', '[UKRAINE-EO13662]', 'sdntk']) {
    test(`an SDN under ${program} counts for BIS too`, () => {
      const verdict = owned60(company('S', sdn(program)));
      assert.deepEqual([verdict.ofac.blocked, verdict.bis.restricted], [true, true]);
    });
  }

  for (const program of ['IRAN', 'VENEZUELA-EO13850', 'GLOMAG', 'CUBA']) {
    test(`an SDN only under ${program} blocks under OFAC but does not count for BIS`, () => {
      const verdict = owned60(company('S', sdn(program)));
      assert.deepEqual([verdict.ofac.blocked, verdict.bis.restricted, verdict.bis.aggregate_percent, verdict.bis.determinate], [true, false, 0, true]);
    });
  }

  test('SDN stakes of counted and uncounted programs: only the counted ones add up for BIS', () => {
    const verdict = check('T', [company('R', sdn('RUSSIA-EO14024')), company('I', sdn('IRAN')), company('T')], [stake('R', 'T', 30), stake('I', 'T', 30)]);
    assert.deepEqual([verdict.ofac.blocked, verdict.bis.restricted, verdict.bis.aggregate_percent], [true, false, 30]);
  });

  for (const list of ['BIS_UVL', 'BIS_DPL', 'OFAC_SSI', 'OFAC_CONS'] as const) {
    test(`${list} counts for neither rule, and is reported`, () => {
      const verdict = owned60(company('L', on(list)));
      assert.deepEqual([verdict.ofac.blocked, verdict.bis.restricted], [false, false]);
      assert.ok(warningCodes(verdict).includes('listed_not_counted'));
    });
  }

  test('an SDN whose programs are not given counts for OFAC, and leaves BIS undetermined', () => {
    const verdict = owned60(company('S', on('OFAC_SDN')));
    assert.deepEqual([verdict.ofac.blocked, verdict.ofac.determinate], [true, true]);
    assert.deepEqual(
      [verdict.bis.restricted, verdict.bis.determinate, verdict.bis.red_flag_29],
      [false, false, false],
      'not Red Flag 29: the percentages are known',
    );
    assert.ok(warningCodes(verdict).includes('sdn_programs_unknown'));
    assert.equal(verdict.bis.paths[0]?.certain, false);
  });

  test('chains pass through affiliates: an unlisted parent covered by the rule passes it down to its 50%-owned subsidiary', () => {
    const verdict = check('T', [company('E', on('BIS_EL')), company('A'), company('T')], [stake('E', 'A', 50), stake('A', 'T', 50)]);
    assert.deepEqual([verdict.bis.restricted, verdict.bis.inherited_from.map((i) => i.entity)], [true, ['E']]);
    assert.equal(verdict.bis.paths[0]?.text, 'E [BIS_EL] —50%→ A [covered owners hold 50%] —50%→ T [covered owners hold 50%]');
  });
});

describe('BIS Affiliates Rule: foreign entities only', () => {
  test('a U.S. target owned by a listed party is not restricted, but may be OFAC-blocked; a foreign one is', () => {
    const graph = (target: ReturnType<typeof company>) => [company('S', sdn('RUSSIA-EO14024')), target];
    const us = check('T', graph(usCompany('T')), [stake('S', 'T', 100)]);
    assert.deepEqual(
      [us.bis.restricted, us.bis.foreign_entity, us.bis.determinate, us.bis.aggregate_percent, us.ofac.blocked],
      [false, false, true, 100, true],
    );
    assert.ok(warningCodes(us).includes('us_target'));
    const foreign = check('T', graph(company('T')), [stake('S', 'T', 100)]);
    assert.deepEqual([foreign.bis.restricted, foreign.bis.foreign_entity], [true, true]);
  });

  test('a listed U.S. target is restricted by its own listing', () => {
    const verdict = check('T', [usCompany('T', on('BIS_EL'))], []);
    assert.deepEqual([verdict.bis.restricted, verdict.bis.basis], [true, 'listed']);
  });

  test('a U.S. intermediate is not restricted itself but passes ownership down as a conduit (medium confidence)', () => {
    const verdict = check('T', [company('E', on('BIS_EL')), usCompany('U'), company('T')], [stake('E', 'U', 100), stake('U', 'T', 60)]);
    assert.equal(verdict.bis.restricted, true);
    assert.equal(verdict.entities.find((e) => e.id === 'U')?.bis_restricted, false);
    assert.deepEqual(verdict.warnings.find((w) => w.code === 'us_intermediate')?.entities, ['U']);
  });

  test('a target without a country is treated as foreign, and the answer says so', () => {
    const verdict = check('T', [company('E', on('BIS_EL')), { id: 'T', type: 'entity' }], [stake('E', 'T', 50)]);
    assert.deepEqual([verdict.bis.restricted, verdict.bis.foreign_entity], [true, true]);
    assert.ok(warningCodes(verdict).includes('country_unknown'));
  });

  test('a natural person is never an affiliate: restricted only by their own listing', () => {
    const verdict = check('P', [person('P'), company('E', on('BIS_EL'))], [stake('P', 'E', 10)]);
    assert.deepEqual([verdict.bis.restricted, verdict.bis.aggregate_percent, verdict.bis.foreign_entity, verdict.bis.red_flag_29], [false, null, false, false]);
  });
});
