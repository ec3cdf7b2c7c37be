/**
 * The case a stored ownership determination opens, per the rules' `ownership.open_case_on`, and
 * what becomes of it when a re-evaluation supersedes the determination. A case about a
 * determination has no name matches to decide: it asks a reviewer whether the vendor or party may
 * be dealt with (CLEARED: e.g. a licence, or ownership data shown wrong; DENIED: not).
 *
 * Its priority follows what the determination means, not a match score: blocked (property blocked
 * by operation of law) is critical, restricted (a BIS licence requirement) high, indeterminate (a
 * stake the rules cannot weigh) medium; a list or program the escalation rules name opens it
 * ESCALATED and critical, as a screening's match does.
 */
import { type AuditContext, recordAudit } from '../../audit/audit.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import { recordEvent } from '../../events/outbox.ts';
import { actorName } from './case-opening.ts';
import type { CaseStatus } from './case-record.ts';
import { appendCaseEvent, type CaseRow, findCase, recordOpenedCases, updateCase } from './case-store.ts';
import { escalationReasons, priorityRank } from './priority.ts';
import type { AdjudicationRules, OwnershipStatus, Priority } from './rules.ts';
import type { CaseStatusHook } from './status-hook.ts';

/** What cases read of a stored determination (the ownership feature, above, hands it down). */
export type DeterminationForCase = {
  id: string;
  status: OwnershipStatus;
  /** The lists and programs of the designations that decided it (the queue's `list` filter, the escalation rules). */
  lists: string[];
  programs: string[];
  /** The highest screening score among the designations counted; 1 when the caller gave them. */
  score: number;
  /** Each rule's verdict in words, for the reviewer (the case's `priority_reasons`). */
  reasons: string[];
};

export type DeterminationCase = { determination: DeterminationForCase; rules: AdjudicationRules; rulesVersion: number; now: Date };

/** The case's source, for the queue's filter and the events. */
export const DETERMINATION_SOURCE = 'ownership';

const PRIORITY_OF: Record<Exclude<OwnershipStatus, 'clear'>, Priority> = { blocked: 'critical', restricted: 'high', indeterminate: 'medium' };

/** Whether the rules open a case for a determination with this status. */
export const opensCase = (rules: AdjudicationRules, status: OwnershipStatus) => status !== 'clear' && rules.ownership.open_case_on.includes(status);

function caseFacts({ determination, rules, rulesVersion, now }: DeterminationCase) {
  const base = determination.status === 'clear' ? 'low' : PRIORITY_OF[determination.status];
  const matches = determination.lists.map((list) => ({ list, programs: determination.programs, score: determination.score }));
  const escalations = escalationReasons({ matches, countryFlags: [] }, rules);
  const priority: Priority = escalations.length > 0 ? 'critical' : base;
  const reasons = [
    `ownership determination ${determination.status}: ${base}`,
    ...determination.reasons,
    ...escalations.map((why) => `escalation rule: ${why}`),
  ];
  const status: CaseStatus = escalations.length > 0 ? 'ESCALATED' : 'OPEN';
  return {
    status,
    priority,
    fields: {
      screening_id: null,
      ownership_check_id: determination.id,
      priority,
      priority_rank: priorityRank(priority),
      priority_reasons: reasons,
      score: determination.score,
      lists: determination.lists,
      sla_due_at: new Date(now.getTime() + rules.sla_hours[priority] * 3_600_000),
      rules_version: rulesVersion,
      updated_at: now,
    },
  };
}

const announced = (caseId: string, determinationId: string, status: CaseStatus, priority: Priority) => ({
  case_id: caseId,
  screening_id: null,
  ownership_check_id: determinationId,
  source: DETERMINATION_SOURCE,
  status,
  priority,
});

/** Opens the case of a determination the rules name, written with it at commit; answers its status. */
export function openDeterminationCase(trx: TenantTransaction, context: AuditContext, caseId: string, toOpen: DeterminationCase): CaseStatus {
  const { status, priority, fields } = caseFacts(toOpen);
  const { now, determination, rulesVersion } = toOpen;
  const row: CaseRow = {
    ...fields,
    id: caseId,
    source: DETERMINATION_SOURCE,
    status,
    assignee: null,
    pending_decision: null,
    match_decisions: {},
    created_at: now,
    closed_at: null,
  };
  const event = {
    action: 'opened',
    actor: actorName(context),
    from_status: null,
    to_status: status,
    disposition: null,
    reason: null,
    details: { priority, priority_reasons: fields.priority_reasons, ownership_check_id: determination.id, rules_version: rulesVersion },
    request_id: context.requestId,
    created_at: now,
  };
  recordOpenedCases(trx, context.actor.organizationId, [{ row, event }]);
  recordEvent(trx, context.actor.organizationId, {
    type: 'case.opened',
    data: announced(caseId, determination.id, status, priority),
    ...(context.requestId && { requestId: context.requestId }),
  });
  return status;
}

/**
 * A re-evaluation superseded the determination a case is about: the case follows the new one. When
 * the rules open a case for the new status, a decided case reopens (with the new priority and SLA)
 * and an open one takes the new priority (ESCALATED when an escalation rule now applies); otherwise
 * (the determination is now clear, say) the case keeps its status and its history says what changed,
 * for a reviewer to decide. Answers the case's status afterwards.
 */
export async function followDetermination(
  trx: TenantTransaction,
  context: AuditContext,
  statusChanged: Pick<CaseStatusHook, 'run'>,
  caseId: string,
  change: DeterminationCase & { previousId: string },
): Promise<CaseStatus> {
  const row = await findCase(trx, caseId, { forUpdate: true });
  if (!row) throw new Error(`case ${caseId} of determination ${change.previousId} is missing`);
  const { determination, now } = change;
  const closed = row.status === 'CLEARED' || row.status === 'DENIED';
  const opens = opensCase(change.rules, determination.status);
  const facts = caseFacts(change);
  const to: CaseStatus = !opens ? row.status : closed || facts.status === 'ESCALATED' ? facts.status : row.status;
  const reopening = opens && closed;
  await updateCase(trx, caseId, {
    ...(opens ? facts.fields : { ownership_check_id: determination.id, updated_at: now }),
    status: to,
    ...(reopening && { closed_at: null, pending_decision: null }),
  });
  await appendCaseEvent(trx, context.actor.organizationId, caseId, {
    action: reopening ? 'reopened' : 'determination_changed',
    actor: actorName(context),
    from_status: row.status,
    to_status: to,
    disposition: null,
    reason: null,
    details: {
      ownership_check_id: determination.id,
      previous_ownership_check_id: change.previousId,
      determination_status: determination.status,
      ...(opens && { priority: facts.priority, rules_version: change.rulesVersion }),
    },
    request_id: context.requestId,
    created_at: now,
  });
  if (reopening) {
    recordAudit(trx, context, {
      action: 'case.reopened',
      target: { type: 'case', id: caseId },
      details: { from: row.status, to, ownership_check_id: determination.id },
    });
    recordEvent(trx, context.actor.organizationId, {
      type: 'case.opened',
      data: { ...announced(caseId, determination.id, to, facts.priority), reopened: true },
      ...(context.requestId && { requestId: context.requestId }),
    });
  }
  if (to !== row.status) await statusChanged.run(trx, context, { caseId, screeningId: null, source: row.source, from: row.status, to, disposition: null });
  return to;
}

/** How a determination's case is shown (the ownership feature answers; the composition root hands it to adjudication). */
export type CaseDeterminations = {
  /** The determination as GET /ownership/checks/{id} shows it; null when there is none. */
  present(trx: TenantTransaction, id: string): Promise<object | null>;
  /** Each determination's target, as the queue names a case's subject. */
  subjects(trx: TenantTransaction, ids: string[]): Promise<Map<string, DeterminationSubject>>;
};

export type DeterminationSubject = { company: string | null; target_id: string; ownership_status: OwnershipStatus };
