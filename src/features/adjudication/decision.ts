/**
 * What a disposition does to a case: the state machine and four-eyes review, pure.
 *
 *   OPEN ──ESCALATED──▶ ESCALATED (still open: needs a senior decision)
 *   OPEN, ESCALATED ──CLEARED──▶ CLEARED (closed)
 *   OPEN, ESCALATED ──DENIED───▶ DENIED (closed)
 *
 * A closed case is reopened only by a re-screen that finds a new or changed list entry, never by
 * a disposition. When the rules ask for a second reviewer, the first CLEARED or DENIED is recorded
 * as pending and the case keeps its status; a different actor confirming the same disposition
 * applies it. A different disposition from another actor replaces the pending one (which then
 * waits for its own second reviewer); an escalation applies at once and drops what was pending.
 */
import { AppError } from '../../http/errors.ts';
import type { AdjudicationRules } from './rules.ts';

export const CASE_STATUSES = ['OPEN', 'ESCALATED', 'CLEARED', 'DENIED'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];
export const DISPOSITIONS = ['CLEARED', 'ESCALATED', 'DENIED'] as const;
export type Disposition = (typeof DISPOSITIONS)[number];
export type MatchDecision = 'false_positive' | 'true_match';

export const OPEN_STATUSES: readonly CaseStatus[] = ['OPEN', 'ESCALATED'];

const ALLOWED: Record<CaseStatus, readonly Disposition[]> = {
  OPEN: ['CLEARED', 'ESCALATED', 'DENIED'],
  ESCALATED: ['CLEARED', 'DENIED'],
  CLEARED: [],
  DENIED: [],
};

export const allowedDispositions = (status: CaseStatus): readonly Disposition[] => ALLOWED[status];

export type PendingDecision = {
  disposition: Disposition;
  reason: string;
  actor: string;
  at: string;
  match_decisions: Record<string, MatchDecision>;
  /** Why a second reviewer is needed, in the rules' words. */
  requires_second_reviewer: string;
};

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

export function decide(state: CaseState, request: DecisionRequest, actor: string, rules: AdjudicationRules, now: Date): Decision {
  const allowed = ALLOWED[state.status];
  if (!allowed.includes(request.disposition)) {
    const options = allowed.length > 0 ? `from ${state.status} only ${allowed.join(' or ')}` : `${state.status} is closed: only a re-screen that finds a new or changed list entry reopens it`;
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
    if (pending.actor === actor) {
      throw new AppError('second_reviewer_required', `${pending.disposition} by ${actor} is waiting for a different reviewer to confirm it (${pending.requires_second_reviewer}).`, {
        pending_since: pending.at,
      });
    }
    const matchDecisions = Object.keys(request.matchDecisions).length > 0 ? request.matchDecisions : pending.match_decisions;
    return { kind: 'applied', to: request.disposition, matchDecisions, confirms: pending };
  }
  const next: PendingDecision = {
    disposition: request.disposition,
    reason: request.reason,
    actor,
    at: now.toISOString(),
    match_decisions: request.matchDecisions,
    requires_second_reviewer: reason,
  };
  return { kind: 'pending', pending: next, ...(pending && { supersedes: pending }) };
}
