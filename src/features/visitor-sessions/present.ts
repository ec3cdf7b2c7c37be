/**
 * A visitor session as the API shows it.
 */
import type { CheckinResult } from './service.ts';
import type { SessionRow } from './session-store.ts';

export function presentSession(session: SessionRow, reuse: CheckinResult['reuse'] = null) {
  return {
    id: session.id,
    object: 'visitor_session' as const,
    status: session.status,
    on_site: session.on_site,
    site: session.site,
    visitor: session.visitor,
    host: session.host,
    purpose: session.purpose,
    badge_number: session.badge_number,
    escort_required: session.escort_required,
    expected_departure_at: session.expected_departure_at?.toISOString() ?? null,
    metadata: session.metadata,
    screening_id: session.screening_id,
    case_id: session.case_id,
    prescreen_reused: session.prescreen_reused,
    ...(reuse && { prescreen: reuse }),
    history: session.history,
    checked_in_at: session.checked_in_at?.toISOString() ?? null,
    checked_out_at: session.checked_out_at?.toISOString() ?? null,
    created_at: session.created_at.toISOString(),
    updated_at: session.updated_at.toISOString(),
  };
}
