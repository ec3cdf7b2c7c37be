/**
 * The case state machine and four-eyes review, on the pure decision function.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decide, type Reviewer, secondReviewReason } from '../../../src/features/adjudication/decision.ts';
import { type CaseStatus, DISPOSITIONS, type Disposition, type PendingDecision } from '../../../src/features/cases/case-record.ts';
import { type AdjudicationRules, DEFAULT_RULES } from '../../../src/features/cases/rules.ts';
import { isAppError } from '../../../src/http/errors.ts';

const now = new Date('2026-11-23T10:00:00Z');
const key = (id: string, person: string | null = null): Reviewer => ({ actor: `api_key:${id}`, person });
const user = (id: string): Reviewer => ({ actor: `user:${id}`, person: `user:${id}` });
const request = (disposition: Disposition) => ({ disposition, reason: 'checked', matchDecisions: {} });
const rulesWith = (fourEyes: Partial<AdjudicationRules['four_eyes']>): AdjudicationRules => ({
  ...DEFAULT_RULES,
  four_eyes: { ...DEFAULT_RULES.four_eyes, ...fourEyes },
});
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  assert.fail('expected a refusal');
};

describe('transitions', () => {
  const expected: Record<CaseStatus, Partial<Record<Disposition, CaseStatus>>> = {
    OPEN: { CLEARED: 'CLEARED', ESCALATED: 'ESCALATED', DENIED: 'DENIED' },
    ESCALATED: { CLEARED: 'CLEARED', DENIED: 'DENIED' },
    CLEARED: {},
    DENIED: {},
  };
  for (const [from, allowed] of Object.entries(expected) as [CaseStatus, Partial<Record<Disposition, CaseStatus>>][]) {
    for (const disposition of DISPOSITIONS) {
      const to = allowed[disposition];
      test(`${from} + ${disposition} → ${to ?? '409 invalid_transition'}`, () => {
        const state = { status: from, score: 0.9, pending: null };
        if (to) {
          const decision = decide(state, request(disposition), key('a'), DEFAULT_RULES, now);
          assert.deepEqual([decision.kind, decision.kind === 'applied' && decision.to], ['applied', to]);
        } else {
          const error = refusal(() => decide(state, request(disposition), key('a'), DEFAULT_RULES, now));
          assert.equal(error.code, 'invalid_transition');
          assert.deepEqual(error.extras.allowed, Object.keys(allowed));
        }
      });
    }
  }
});

describe('four-eyes review', () => {
  const fourEyes = rulesWith({ denied: true, cleared_min_score: 0.95, cleared_escalated: true });

  test('which decisions need a second reviewer', () => {
    assert.match(secondReviewReason(fourEyes, { status: 'OPEN', score: 0.8 }, 'DENIED') ?? '', /every DENIED/);
    assert.match(secondReviewReason(fourEyes, { status: 'OPEN', score: 0.97 }, 'CLEARED') ?? '', /scored 0.97/);
    assert.equal(secondReviewReason(fourEyes, { status: 'OPEN', score: 0.94 }, 'CLEARED'), null);
    assert.match(secondReviewReason(fourEyes, { status: 'ESCALATED', score: 0.8 }, 'CLEARED') ?? '', /escalated/);
    assert.equal(secondReviewReason(fourEyes, { status: 'OPEN', score: 0.99 }, 'ESCALATED'), null, 'escalating never waits');
    assert.equal(secondReviewReason(DEFAULT_RULES, { status: 'OPEN', score: 1 }, 'DENIED'), null, 'off by default');
  });

  test('the first decision waits; the same actor cannot confirm it; another actor applies it', () => {
    const first = decide({ status: 'OPEN', score: 0.9, pending: null }, request('DENIED'), key('a'), fourEyes, now);
    assert.equal(first.kind, 'pending');
    const pending = (first as { pending: PendingDecision }).pending;
    assert.deepEqual([pending.disposition, pending.actor, pending.at], ['DENIED', 'api_key:a', now.toISOString()]);

    const again = refusal(() => decide({ status: 'OPEN', score: 0.9, pending }, request('DENIED'), key('a'), fourEyes, now));
    assert.equal(again.code, 'second_reviewer_required');

    const second = decide({ status: 'OPEN', score: 0.9, pending }, request('DENIED'), user('b@example.com'), fourEyes, now);
    assert.equal(second.kind, 'applied');
    assert.equal((second as { confirms?: PendingDecision }).confirms?.actor, 'api_key:a');
  });

  test('a second review is a person: never an API key, never the proposer, never whoever created the proposing key', () => {
    const state = (pending: PendingDecision) => ({ status: 'OPEN' as const, score: 0.9, pending });
    const byKey = (
      decide({ status: 'OPEN', score: 0.9, pending: null }, request('DENIED'), key('a', 'user:ann@example.com'), fourEyes, now) as { pending: PendingDecision }
    ).pending;
    assert.equal(byKey.person, 'user:ann@example.com');
    const refusedKey = refusal(() => decide(state(byKey), request('DENIED'), key('b', 'user:bob@example.com'), fourEyes, now));
    assert.deepEqual([refusedKey.code, refusedKey.extras.answerable], ['second_reviewer_required', 'user:ann@example.com']);
    assert.match(refusedKey.message, /never an API key/);
    const refusedCreator = refusal(() => decide(state(byKey), request('DENIED'), user('ann@example.com'), fourEyes, now));
    assert.match(refusedCreator.message, /api_key:a, which proposed it, was created by you/);
    assert.equal(decide(state(byKey), request('DENIED'), user('bob@example.com'), fourEyes, now).kind, 'applied');

    const byPerson = (
      decide({ status: 'OPEN', score: 0.9, pending: null }, request('DENIED'), user('ann@example.com'), fourEyes, now) as { pending: PendingDecision }
    ).pending;
    const ownKey = refusal(() => decide(state(byPerson), request('DENIED'), key('made-by-ann', 'user:ann@example.com'), fourEyes, now));
    assert.equal(ownKey.code, 'second_reviewer_required', 'the proposer through another credential');
    assert.match(refusal(() => decide(state(byPerson), request('DENIED'), user('ann@example.com'), fourEyes, now)).message, /you proposed it/);
  });

  test('a proposal recorded before the answerable person was kept still refuses its proposer', () => {
    const old: PendingDecision = {
      disposition: 'DENIED',
      reason: 'x',
      actor: 'user:ann@example.com',
      at: now.toISOString(),
      match_decisions: {},
      requires_second_reviewer: 'every DENIED',
    };
    const state = { status: 'OPEN' as const, score: 0.9, pending: old };
    assert.equal(refusal(() => decide(state, request('DENIED'), user('ann@example.com'), fourEyes, now)).code, 'second_reviewer_required');
    assert.equal(decide(state, request('DENIED'), user('bob@example.com'), fourEyes, now).kind, 'applied');
  });

  test('a different disposition from another actor replaces the pending one and waits for its own second reviewer', () => {
    const { pending } = decide({ status: 'OPEN', score: 0.97, pending: null }, request('CLEARED'), key('a'), fourEyes, now) as { pending: PendingDecision };
    const other = decide({ status: 'OPEN', score: 0.97, pending }, request('DENIED'), key('b'), fourEyes, now);
    assert.equal(other.kind, 'pending');
    assert.equal((other as { supersedes?: PendingDecision }).supersedes?.disposition, 'CLEARED');
    assert.equal((other as { pending: PendingDecision }).pending.actor, 'api_key:b');
  });

  test('an escalation applies at once, whatever is pending', () => {
    const { pending } = decide({ status: 'OPEN', score: 0.9, pending: null }, request('DENIED'), key('a'), fourEyes, now) as { pending: PendingDecision };
    const escalated = decide({ status: 'OPEN', score: 0.9, pending }, request('ESCALATED'), key('a'), fourEyes, now);
    assert.deepEqual([escalated.kind, escalated.kind === 'applied' && escalated.to], ['applied', 'ESCALATED']);
  });
});
