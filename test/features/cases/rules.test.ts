/**
 * Adjudication rules: defaults filled in, the checks a schema cannot make, and priorities.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { holdPolicyFor } from '../../../src/features/cases/country-holds.ts';
import { assessCase } from '../../../src/features/cases/priority.ts';
import { completeRules, DEFAULT_RULES, ruleProblems } from '../../../src/features/cases/rules.ts';
import { doorAction } from '../../../src/features/cases/watchlist-actions.ts';

describe('rules', () => {
  test('an empty body is the defaults; a section given replaces only the fields it names', () => {
    assert.deepEqual(completeRules({}), DEFAULT_RULES);
    assert.deepEqual(completeRules(DEFAULT_RULES), DEFAULT_RULES, 'a complete set completes to itself (stored versions are read through it)');
    assert.deepEqual(completeRules({ country_holds: { sources: ['checkin', 'checkin'] } }).country_holds, {
      prohibited_regimes: DEFAULT_RULES.country_holds.prohibited_regimes,
      sources: ['checkin'],
    });
    const rules = completeRules({ thresholds: { lists: { bis_el: 0.9 } }, four_eyes: { denied: true } });
    assert.deepEqual(rules.thresholds, { match: 0.8, lists: { BIS_EL: 0.9 }, auto_clear_band: 0 });
    assert.deepEqual(rules.four_eyes, { ...DEFAULT_RULES.four_eyes, denied: true });
  });

  test('country holds: every first screening holds by default, a re-screen never, and the rules narrow both', () => {
    for (const source of ['prescreen', 'checkin', 'vendor', 'workforce']) {
      assert.deepEqual(
        holdPolicyFor(DEFAULT_RULES, source),
        { escalate: [], prohibited: ['OFAC_COMPREHENSIVE', 'OFAC_REGION', 'ITAR_126_1', 'EAR_E1', 'EAR_E2'] },
        source,
      );
    }
    assert.deepEqual(holdPolicyFor(completeRules({ escalation: { country_flags: ['EAR_E1'] } }), 'rescreen'), { escalate: [], prohibited: [] });
    const narrowed = completeRules({
      escalation: { country_flags: ['EAR_E1'] },
      country_holds: { prohibited_regimes: ['OFAC_COMPREHENSIVE'], sources: ['checkin'] },
    });
    assert.deepEqual(holdPolicyFor(narrowed, 'checkin'), { escalate: ['EAR_E1'], prohibited: ['OFAC_COMPREHENSIVE'] });
    assert.deepEqual(holdPolicyFor(narrowed, 'workforce'), { escalate: [], prohibited: [] });
  });

  test('unknown lists, a band reaching too low and SLAs out of priority order are each named', () => {
    const rules = completeRules({
      thresholds: { match: 0.6, lists: { NOT_A_LIST: 0.9 }, auto_clear_band: 0.2 },
      escalation: { lists: ['OFAC_SDN', 'MADE_UP'] },
      sla_hours: { critical: 48, high: 24 },
    });
    assert.deepEqual(
      ruleProblems(rules, []).map((p) => p.pointer),
      ['/thresholds/lists/NOT_A_LIST', '/escalation/lists/1', '/thresholds/auto_clear_band', '/sla_hours/high'],
    );
    assert.deepEqual(ruleProblems(completeRules({ escalation: { lists: ['MY_LIST'] } }), ['MY_LIST']), [], 'a loaded list is known');
    assert.deepEqual(ruleProblems(DEFAULT_RULES, []), []);
  });
});

describe('watchlist rules', () => {
  test('each severity does what the rules say, by default red denies, orange holds and yellow reviews', () => {
    assert.deepEqual(DEFAULT_RULES.watchlists, { red: 'deny', orange: 'hold', yellow: 'review' });
    assert.deepEqual(completeRules({ watchlists: { red: 'hold' } }).watchlists, { red: 'hold', orange: 'hold', yellow: 'review' });
  });

  test('a rule names a watchlist as ORG:<slug>, its slug as written, whether or not it exists yet', () => {
    const rules = completeRules({ thresholds: { lists: { 'org:do-not-admit': 0.9, ofac_sdn: 0.85 } }, escalation: { lists: ['ORG:do-not-admit'] } });
    assert.deepEqual(rules.thresholds.lists, { 'ORG:do-not-admit': 0.9, OFAC_SDN: 0.85 });
    assert.deepEqual(rules.escalation.lists, ['ORG:do-not-admit']);
    assert.deepEqual(ruleProblems(rules, []), []);
    assert.deepEqual(
      ruleProblems(completeRules({ escalation: { lists: ['ORG:Not A Slug'] } }), []).map((p) => p.pointer),
      ['/escalation/lists/0'],
    );
  });

  test('the strictest action among the standing matches wins; a public-list match or a country hold always holds', () => {
    const on = (severity: 'red' | 'orange' | 'yellow', suppressed_by: string | null = null) => ({
      list: 'ORG:x',
      entry_id: 'wle_1',
      suppressed_by,
      watchlist: { severity },
    });
    const sdn = { list: 'OFAC_SDN', entry_id: '1', suppressed_by: null };
    const action = (matches: Parameters<typeof doorAction>[0]['matches'], holds: unknown[] = []) => doorAction({ matches, holds }, DEFAULT_RULES);
    assert.equal(action([]), null);
    assert.equal(action([on('yellow')]), 'review');
    assert.equal(action([on('yellow'), on('orange')]), 'hold');
    assert.equal(action([on('orange'), on('red'), on('yellow')]), 'deny');
    assert.equal(action([on('yellow'), sdn]), 'hold', 'a public-list match holds as it always has');
    assert.equal(action([on('yellow')], [{ regime: 'OFAC_COMPREHENSIVE' }]), 'hold', 'so does a country hold');
    assert.equal(action([on('red', 'sup_1'), on('yellow')]), 'review', 'a suppressed match stands for nothing');
    assert.equal(doorAction({ matches: [on('red')] }, completeRules({ watchlists: { red: 'review' } })), 'review');
  });
});

describe('priority', () => {
  const sdn = { list: 'OFAC_SDN', programs: ['SDGT'], score: 0.9 };
  const uvl = { list: 'BIS_UVL', programs: [], score: 0.9 };
  const iran = { regime: 'OFAC_COMPREHENSIVE', severity: 'prohibited', country: 'IR' };

  test('the score sets the base; a blocking list and a prohibited country each raise it one step, up to critical', () => {
    assert.equal(assessCase({ matches: [{ ...uvl, score: 0.82 }], countryFlags: [] }, DEFAULT_RULES).priority, 'low');
    assert.equal(assessCase({ matches: [uvl], countryFlags: [] }, DEFAULT_RULES).priority, 'medium');
    assert.equal(assessCase({ matches: [{ ...uvl, score: 0.99 }], countryFlags: [] }, DEFAULT_RULES).priority, 'high');
    assert.equal(assessCase({ matches: [sdn], countryFlags: [] }, DEFAULT_RULES).priority, 'high');
    const both = assessCase({ matches: [{ ...sdn, score: 0.99 }], countryFlags: [iran] }, DEFAULT_RULES);
    assert.deepEqual([both.priority, both.rank, both.escalate], ['critical', 4, false]);
    assert.equal(both.reasons.length, 3, both.reasons.join(' | '));
    const restricted = assessCase({ matches: [uvl], countryFlags: [{ regime: 'EAR_E2', severity: 'restricted', country: 'CU' }] }, DEFAULT_RULES);
    assert.equal(restricted.priority, 'medium', 'a restriction is not a prohibition');
  });

  test('a country hold with no name match: low by the score, a step up for the prohibition, and the rule named', () => {
    const hold = { regime: 'OFAC_COMPREHENSIVE' as const, country: 'IR', detail: 'nationality IR' };
    const alone = assessCase({ matches: [], countryFlags: [iran], holds: [hold] }, DEFAULT_RULES);
    assert.deepEqual(alone, {
      priority: 'medium',
      rank: 2,
      escalate: false,
      reasons: ['no name match alerts: low', 'OFAC_COMPREHENSIVE (IR): one step up', 'country rule: OFAC_COMPREHENSIVE (IR) — nationality IR'],
    });
    const named = assessCase({ matches: [], countryFlags: [iran], holds: [hold] }, completeRules({ escalation: { country_flags: ['OFAC_COMPREHENSIVE'] } }));
    assert.deepEqual([named.priority, named.escalate, named.reasons.at(-1)], ['critical', true, 'escalation rule: country flag OFAC_COMPREHENSIVE']);
  });

  test('an escalation rule on a list, a program or a country flag makes it critical and escalated', () => {
    for (const escalation of [{ lists: ['BIS_UVL'] }, { programs: ['SDGT'] }, { country_flags: ['OFAC_COMPREHENSIVE' as const] }]) {
      const rules = completeRules({ escalation });
      const facts = {
        matches: [{ ...uvl, score: 0.82 }, ...('programs' in escalation ? [sdn] : [])],
        countryFlags: 'country_flags' in escalation ? [iran] : [],
      };
      const assessment = assessCase(facts, rules);
      assert.deepEqual([assessment.priority, assessment.escalate], ['critical', true], JSON.stringify(escalation));
      assert.ok(assessment.reasons.some((r) => r.startsWith('escalation rule')));
    }
  });
});
