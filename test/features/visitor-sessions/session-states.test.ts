/**
 * The visitor session state machine, every pair of statuses.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertMove, onSiteAfter, SESSION_STATUSES, type SessionStatus, statusForCase } from '../../../src/features/visitor-sessions/session-states.ts';
import { isAppError } from '../../../src/http/errors.ts';

const ALLOWED: Record<SessionStatus, SessionStatus[]> = {
  pending_review: ['checked_in', 'denied', 'escalated'],
  checked_in: ['checked_out', 'escalated'],
  escalated: ['checked_in', 'denied', 'checked_out'],
  denied: [],
  checked_out: [],
};

const outcome = (from: SessionStatus, to: SessionStatus, caseStatus: string | null) => {
  try {
    assertMove(from, to, caseStatus);
    return 'ok';
  } catch (error) {
    assert.ok(isAppError(error));
    assert.equal(error.code, 'invalid_transition');
    return error.extras.allowed;
  }
};

test('every move the state machine allows, and every one it refuses with what is allowed', () => {
  for (const from of SESSION_STATUSES) {
    for (const to of SESSION_STATUSES) {
      const expected = ALLOWED[from].includes(to) ? 'ok' : ALLOWED[from];
      assert.deepEqual(outcome(from, to, null), expected, `${from} → ${to}`);
    }
  }
});

test('only a CLEARED case (or none) lets a visitor in', () => {
  for (const caseStatus of ['OPEN', 'ESCALATED', 'DENIED']) {
    assert.deepEqual(outcome('pending_review', 'checked_in', caseStatus), ['denied', 'escalated'], caseStatus);
    assert.deepEqual(outcome('escalated', 'checked_in', caseStatus), ['denied', 'checked_out'], caseStatus);
  }
  assert.equal(outcome('pending_review', 'checked_in', 'CLEARED'), 'ok');
  assert.equal(outcome('pending_review', 'denied', 'OPEN'), 'ok', 'a desk may always refuse entry');
});

test('where a case puts a session, and who is on site', () => {
  assert.deepEqual([null, 'OPEN', 'ESCALATED', 'CLEARED', 'DENIED'].map(statusForCase), ['checked_in', 'pending_review', 'escalated', 'checked_in', 'denied']);
  assert.equal(onSiteAfter('checked_in', false), true);
  assert.equal(onSiteAfter('escalated', true), true, 'escalated while inside: still inside');
  assert.equal(onSiteAfter('escalated', false), false, 'escalated at the door: not inside');
  assert.equal(onSiteAfter('checked_out', true), false);
  assert.equal(onSiteAfter('denied', true), false);
});
