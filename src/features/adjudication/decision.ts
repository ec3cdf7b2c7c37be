/**
 * What a disposition does to a case: the state machine and four-eyes review, pure.
 *
 *   OPEN ──ESCALATED──▶ ESCALATED (still open: needs a senior decision)
 *   OPEN, ESCALATED ──CLEARED──▶ CLEARED (closed)
 *   OPEN, ESCALATED ──DENIED───▶ DENIED (closed)
 *
 * A closed case is reopened only by a re-screen that finds a new or changed list entry, never by
 * a disposition. When the rules ask for a second reviewer, the first CLEARED or DENIED is recorded
 * as pending and the case keeps its status; a different person confirming the same disposition
 * applies it. The confirmation must come from a person (a console user or a JWT subject), never
 * an API key, and never from the person answerable for the proposal: whoever made it, or whoever
 * created the key that made it. A different disposition from another actor replaces the pending
 * one (which then waits for its own second reviewer); an escalation applies at once and drops
 * what was pending.
 */
import { AppError } from '../../http/errors.ts';
import type { CaseStatus, Disposition, MatchDecision, PendingDecision } from '../cases/case-record.ts';
import type { AdjudicationRules } from '../cases/rules.ts';

export const OPEN_STATUSES: readonly CaseStatus[] = ['OPEN', 'ESCALATED'];

const ALLOWED: Record<CaseStatus, readonly Disposition[]> = {
  OPEN: ['CLEARED', 'ESCALATED', 'DENIED'],
  ESCALATED: ['CLEARED', 'DENIED'],
  CLEARED: [],
  DENIED: [],
};

export const allowedDispositions = (status: CaseStatus): readonly Disposition[] => ALLOWED[status];

/** Who sends a disposition: the credential (`api_key:…`, `user:…`) and the person answerable for it. */
export type Reviewer = { actor: string; person: string | null };

export type DecisionRequest = { disposition: Disposition; reason: string; matchDecisions: Record<string, MatchDecision> };

export type Decision =
  | { kind: 'applied'; to: CaseStatus; matchDecisions: Record<string, MatchDecision>; confirms?: PendingDecision }
  | { kind: 'pending'; pending: PendingDecision; supersedes?: PendingDecision };

type CaseState = { status: CaseStatus; score: number; pending: PendingDecision | null };

/** Why this disposition of this case needs a second reviewer under these rules, or null. */
export function secondReviewReason(rules: AdjudicationRules, state: Pick<CaseState, 'status' | 'score'>, disposition: Disposition): string | null {
  const { denied, cleared_min_score: minScore, cleared_escalated: escalated } = rules.four_eyes;
  if (disposition === 'DENIED' && denied) return 'every DENIED needs a second reviewer';
  if (disposition !== 'CLEARED') return null;
  if (escalated && state.status === 'ESCALATED') return 'clearing an escalated case needs a second reviewer';
  if (minScore !== null && state.score >= minScore) return `clearing a case scored ${state.score.toFixed(2)} (at least ${minScore}) needs a second reviewer`;
  return null;
}

export function decide(state: CaseState, request: DecisionRequest, reviewer: Reviewer, rules: AdjudicationRules, now: Date): Decision {
  const allowed = ALLOWED[state.status];
  if (!allowed.includes(request.disposition)) {
    const options =
      allowed.length > 0
        ? `from ${state.status} only ${allowed.join(' or ')}`
        : `${state.status} is closed: only a re-screen that finds a new or changed list entry reopens it`;
    throw new AppError('invalid_transition', `A case in ${state.status} cannot be ${request.disposition}; ${options}.`, {
      status_now: state.status,
      allowed: [...allowed],
    });
  }
  const pending = state.pending;
  if (request.disposition === 'ESCALATED') return { kind: 'applied', to: 'ESCALATED', matchDecisions: request.matchDecisions };

  const reason = secondReviewReason(rules, state, request.disposition);
  if (reason === null) return { kind: 'applied', to: request.disposition, matchDecisions: request.matchDecisions };

  if (pending?.disposition === request.disposition) {
    refuseUnlessSecondPerson(pending, reviewer);
    const matchDecisions = Object.keys(request.matchDecisions).length > 0 ? request.matchDecisions : pending.match_decisions;
    return { kind: 'applied', to: request.disposition, matchDecisions, confirms: pending };
  }
  const next: PendingDecision = {
    disposition: request.disposition,
    reason: request.reason,
    actor: reviewer.actor,
    at: now.toISOString(),
    match_decisions: request.matchDecisions,
    requires_second_reviewer: reason,
    person: reviewer.person,
  };
  return { kind: 'pending', pending: next, ...(pending && { supersedes: pending }) };
}

/** The person answerable for a pending proposal; for one recorded before `person` was kept, the proposer if a person. */
export const proposerPerson = (pending: PendingDecision): string | null => pending.person ?? (pending.actor.startsWith('user:') ? pending.actor : null);

function refuseUnlessSecondPerson(pending: PendingDecision, reviewer: Reviewer) {
  const waiting = `${pending.disposition} proposed by ${pending.actor} is waiting for a second person to confirm it (${pending.requires_second_reviewer})`;
  const proposer = proposerPerson(pending);
  const extras = { pending_since: pending.at, proposed_by: pending.actor, ...(proposer && proposer !== pending.actor && { answerable: proposer }) };
  if (!reviewer.actor.startsWith('user:')) {
    throw new AppError('second_reviewer_required', `${waiting}: a second review is a person's (a console user or a JWT), never an API key's.`, extras);
  }
  if (reviewer.actor === pending.actor || reviewer.person === proposer) {
    const how = reviewer.actor === pending.actor ? 'you proposed it' : `${pending.actor}, which proposed it, was created by you`;
    throw new AppError('second_reviewer_required', `${waiting}, and ${how}.`, extras);
  }
}
