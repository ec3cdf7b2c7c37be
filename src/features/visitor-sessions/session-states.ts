/**
 * A visitor session's statuses and the moves between them, pure.
 *
 *   pending_review ──▶ checked_in (case CLEARED) | denied (case DENIED) | escalated (case ESCALATED)
 *   checked_in     ──▶ checked_out | escalated
 *   escalated      ──▶ checked_in | denied | checked_out
 *   checked_out, denied: final
 *
 * A visitor waiting on a case is let in only by the case: moving a session to checked_in while its
 * case is open or denied is refused, so no desk can step around adjudication.
 */
import type { EventType } from '../../events/event-types.ts';
import { AppError } from '../../http/errors.ts';
import type { DoorAction } from '../cases/watchlist-actions.ts';

export const SESSION_STATUSES = ['pending_review', 'checked_in', 'escalated', 'denied', 'checked_out'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

const NEXT: Record<SessionStatus, readonly SessionStatus[]> = {
  pending_review: ['checked_in', 'denied', 'escalated'],
  checked_in: ['checked_out', 'escalated'],
  escalated: ['checked_in', 'denied', 'checked_out'],
  denied: [],
  checked_out: [],
};

export const allowedNext = (status: SessionStatus): readonly SessionStatus[] => NEXT[status];
export const isFinal = (status: SessionStatus): boolean => NEXT[status].length === 0;

/** The event each arrival emits, for the statuses that have one. */
export const EVENT_ON_ARRIVAL: Partial<Record<SessionStatus, EventType>> = {
  checked_in: 'visitor.checked_in',
  checked_out: 'visitor.checked_out',
  escalated: 'session.escalated',
};

/** Whether the visitor is on site once in `to`, having been `onSite` before. */
export function onSiteAfter(to: SessionStatus, onSite: boolean): boolean {
  if (to === 'checked_in') return true;
  if (to === 'checked_out' || to === 'denied') return false;
  return onSite; // escalated: where they were (at the door, or already inside)
}

/** Refuses a move the state machine does not allow, naming the ones it does. */
export function assertMove(from: SessionStatus, to: SessionStatus, caseStatus: string | null): void {
  const allowed = NEXT[from];
  if (!allowed.includes(to)) {
    const options = allowed.length > 0 ? `from ${from} only ${allowed.join(', ')}` : `${from} is final`;
    throw new AppError('invalid_transition', `A session in ${from} cannot move to ${to}; ${options}.`, { status_now: from, allowed: [...allowed] });
  }
  if (to === 'checked_in' && caseStatus !== null && caseStatus !== 'CLEARED') {
    throw new AppError(
      'invalid_transition',
      `The visitor's case is ${caseStatus}: only clearing the case checks them in (POST /api/v1/adjudication/{id}/disposition).`,
      {
        status_now: from,
        allowed: allowed.filter((s) => s !== 'checked_in'),
        case_status: caseStatus,
      },
    );
  }
}

/** Where a session stands when its screening's case is in `caseStatus` (none: clear, or every match suppressed). */
export function statusForCase(caseStatus: string | null): SessionStatus {
  switch (caseStatus) {
    case null:
    case 'CLEARED':
      return 'checked_in';
    case 'DENIED':
      return 'denied';
    case 'ESCALATED':
      return 'escalated';
    default:
      return 'pending_review';
  }
}

/**
 * Where a session opens at the door: as its screening's case says, except that a case only to be
 * reviewed (the strictest of its matches is a watchlist severity the rules map to `review`) lets
 * the visitor in while it is decided.
 */
export function statusAtDoor(caseStatus: string | null, action: DoorAction | null): SessionStatus {
  if (action === 'review' && (caseStatus === 'OPEN' || caseStatus === 'ESCALATED')) return 'checked_in';
  return statusForCase(caseStatus);
}
