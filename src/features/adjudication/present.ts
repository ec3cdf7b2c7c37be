/**
 * Cases as the API shows them: the row, whether it is overdue now, and (for one case) its history,
 * its subject (a screening, or an ownership determination) and the rules that governed it.
 */
import type { CaseEvent, CaseRow } from '../cases/case-store.ts';
import type { VersionedRules } from '../cases/rules.ts';
import { OPEN_STATUSES } from './decision.ts';

export function presentCase(row: CaseRow, now: Date) {
  return {
    id: row.id,
    object: 'case' as const,
    status: row.status,
    priority: row.priority,
    priority_reasons: row.priority_reasons,
    score: row.score,
    lists: row.lists,
    source: row.source,
    screening_id: row.screening_id,
    ownership_check_id: row.ownership_check_id,
    assignee: row.assignee,
    sla_due_at: row.sla_due_at.toISOString(),
    overdue: OPEN_STATUSES.includes(row.status) && row.sla_due_at < now,
    pending_decision: row.pending_decision,
    match_decisions: row.match_decisions,
    rules_version: row.rules_version,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    closed_at: row.closed_at?.toISOString() ?? null,
  };
}

export function presentHistory(events: CaseEvent[]) {
  return events.map((e) => ({
    seq: e.seq,
    at: e.created_at.toISOString(),
    action: e.action,
    actor: e.actor,
    from_status: e.from_status,
    to_status: e.to_status,
    disposition: e.disposition,
    reason: e.reason,
    details: e.details,
    request_id: e.request_id,
  }));
}

export function presentCaseDetail(
  row: CaseRow,
  now: Date,
  extra: { history: CaseEvent[]; screening: object | null; determination: object | null; rules: VersionedRules },
) {
  const { screening, determination, history, rules } = extra;
  return { ...presentCase(row, now), screening, determination, history: presentHistory(history), rules };
}

/** One case as GET /adjudication/{id} answers it (and the console shows it). */
export type CaseDetail = ReturnType<typeof presentCaseDetail>;
