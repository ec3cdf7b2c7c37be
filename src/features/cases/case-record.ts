/**
 * What a case records of where it stands: its status, the dispositions that move it, a decision
 * on each match, and a decision waiting for a second reviewer. The state machine over them, and
 * four-eyes review, are adjudication's (src/features/adjudication/decision.ts).
 */
export const CASE_STATUSES = ['OPEN', 'ESCALATED', 'CLEARED', 'DENIED'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];
export const DISPOSITIONS = ['CLEARED', 'ESCALATED', 'DENIED'] as const;
export type Disposition = (typeof DISPOSITIONS)[number];
export type MatchDecision = 'false_positive' | 'true_match';

export type PendingDecision = {
  disposition: Disposition;
  reason: string;
  actor: string;
  at: string;
  match_decisions: Record<string, MatchDecision>;
  /** Why a second reviewer is needed, in the rules' words. */
  requires_second_reviewer: string;
  /**
   * The person answerable for the proposal (`user:<id>`): the proposer, or whoever created the key
   * that proposed; null when no person is. Absent on proposals recorded before it was kept.
   */
  person?: string | null;
};
