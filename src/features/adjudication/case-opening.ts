/**
 * The part of adjudication that runs inside every screening's transaction: which matches an
 * earlier false-positive decision covers, and the case a potential match opens.
 */
import type { AuditContext } from '../../audit/audit.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import { recordEvent } from '../../events/outbox.ts';
import { appendCaseEvent, insertCase } from './case-store.ts';
import type { CaseStatus } from './decision.ts';
import { type FingerprintInput, subjectFingerprint } from './fingerprint.ts';
import { assessCase } from './priority.ts';
import type { AdjudicationRules } from './rules.ts';
import { activeSuppressions } from './suppression-store.ts';

/** What adjudication reads of a screening record (src/features/screenings/build-screening.ts). */
export type ScreeningForCase = {
  id: string;
  source: string;
  input: FingerprintInput;
  matches: {
    id: string;
    list: string;
    entry_id: string;
    entry_sha256: string;
    field: 'subject' | 'alias' | 'company';
    programs: string[];
    score: number;
    suppressed_by: string | null;
  }[];
  country_flags: { regime: string; severity: string; country?: string; region?: string }[];
};

export const actorName = (context: AuditContext) => `${context.actor.kind}:${context.actor.id}`;

/** The record with each match an active suppression covers marked `suppressed_by`. */
export async function applySuppressions<R extends ScreeningForCase>(trx: TenantTransaction, record: R, rules: AdjudicationRules, now: Date): Promise<R> {
  if (!rules.suppressions.enabled || record.matches.length === 0) return record;
  const fingerprints = record.matches.map((m) => subjectFingerprint(record.input, m.field));
  const active = await activeSuppressions(trx, fingerprints, now);
  if (active.length === 0) return record;
  const matches = record.matches.map((match, i) => {
    const covering = active.find(
      (s) => s.subject_fingerprint === fingerprints[i] && s.list === match.list && s.entry_id === match.entry_id && s.entry_sha256 === match.entry_sha256,
    );
    return covering ? { ...match, suppressed_by: covering.id } : match;
  });
  return { ...record, matches };
}

export type CaseToOpen = { caseId: string; screening: ScreeningForCase; rules: AdjudicationRules; rulesVersion: number; now: Date };

/** Opens the case for a screening's unsuppressed matches; answers the status it opened in. */
export async function openCase(trx: TenantTransaction, context: AuditContext, { caseId, screening, rules, rulesVersion, now }: CaseToOpen): Promise<CaseStatus> {
  const organizationId = context.actor.organizationId;
  const alerting = screening.matches.filter((m) => m.suppressed_by === null);
  const assessment = assessCase({ matches: alerting, countryFlags: screening.country_flags }, rules);
  const status: CaseStatus = assessment.escalate ? 'ESCALATED' : 'OPEN';
  await insertCase(trx, organizationId, {
    id: caseId,
    screening_id: screening.id,
    source: screening.source,
    status,
    priority: assessment.priority,
    priority_rank: assessment.rank,
    priority_reasons: assessment.reasons,
    score: Math.max(...alerting.map((m) => m.score)),
    lists: [...new Set(alerting.map((m) => m.list))],
    assignee: null,
    sla_due_at: new Date(now.getTime() + rules.sla_hours[assessment.priority] * 3_600_000),
    rules_version: rulesVersion,
    pending_decision: null,
    match_decisions: {},
    created_at: now,
    updated_at: now,
    closed_at: null,
  });
  await appendCaseEvent(trx, organizationId, caseId, {
    action: 'opened',
    actor: actorName(context),
    from_status: null,
    to_status: status,
    disposition: null,
    reason: null,
    details: { priority: assessment.priority, priority_reasons: assessment.reasons, screening_id: screening.id, rules_version: rulesVersion },
    request_id: context.requestId,
    created_at: now,
  });
  await recordEvent(trx, organizationId, {
    type: 'case.opened',
    data: { case_id: caseId, screening_id: screening.id, source: screening.source, status, priority: assessment.priority },
    ...(context.requestId && { requestId: context.requestId }),
  });
  return status;
}
