/**
 * What runs inside every screening's transaction: which matches an earlier false-positive decision
 * covers, and the case a potential match (or a country hold) opens.
 */
import { type AuditContext, recordAudit } from '../../audit/audit.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import { recordEvent, recordEvents } from '../../events/outbox.ts';
import type { CaseStatus, PendingDecision } from './case-record.ts';
import { appendCaseEvent, findCase, recordOpenedCases, updateCase } from './case-store.ts';
import { type FingerprintInput, subjectFingerprint } from './fingerprint.ts';
import { assessCase, type CaseFacts } from './priority.ts';
import type { AdjudicationRules, WatchlistSeverity } from './rules.ts';
import type { CaseStatusHook } from './status-hook.ts';
import type { Suppression } from './suppression-store.ts';
import { doorAction, ruleDenialPending, ruleDenialReason } from './watchlist-actions.ts';

/** What cases read of a screening record (src/features/screenings/build-screening.ts, which sits above and hands it down). */
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
    /** On a match on one of the organization's watchlists: its entry's severity (what the rules map to an action). */
    watchlist?: { severity: WatchlistSeverity };
  }[];
  country_flags: { regime: string; severity: string; country?: string; region?: string }[];
  /** Country flags the rules hold the subject for, match or none (absent in screenings made before holds existed). */
  holds?: CaseFacts['holds'];
};

export const actorName = (context: AuditContext) => `${context.actor.kind}:${context.actor.id}`;

/** The suppressions in force at `now` for any of these subjects. */
export type SuppressionLookUp = (fingerprints: string[], now: Date) => Promise<Suppression[]>;

/** The records with each match an active suppression covers marked `suppressed_by`: one look-up for the whole batch. */
export async function applySuppressions<R extends ScreeningForCase>(
  lookUp: SuppressionLookUp,
  records: R[],
  rules: AdjudicationRules,
  now: Date,
): Promise<R[]> {
  if (!rules.suppressions.enabled || records.every((r) => r.matches.length === 0)) return records;
  const fingerprints = records.map((record) => record.matches.map((m) => subjectFingerprint(record.input, m.field)));
  const active = await lookUp(fingerprints.flat(), now);
  if (active.length === 0) return records;
  return records.map((record, r) => {
    const matches = record.matches.map((match, i) => {
      const covering = active.find(
        (s) =>
          s.subject_fingerprint === fingerprints[r]?.[i] && s.list === match.list && s.entry_id === match.entry_id && s.entry_sha256 === match.entry_sha256,
      );
      return covering ? { ...match, suppressed_by: covering.id } : match;
    });
    return { ...record, matches };
  });
}

/** In a case event's details: the rules decided DENIED (`applied`) or proposed it for a second reviewer (`pending`). */
const ruleMade = (fields: { status: CaseStatus; pending_decision: PendingDecision | null }) =>
  fields.status === 'DENIED'
    ? { decided_by: 'rules', rule_decision: 'applied' }
    : fields.pending_decision
      ? { decided_by: 'rules', rule_decision: 'pending' }
      : {};

export type CaseToOpen = { caseId: string; screening: ScreeningForCase; rules: AdjudicationRules; rulesVersion: number; now: Date };

/**
 * What a screening's unsuppressed matches make of a case: its status, priority, SLA and lists; and
 * when a watchlist match's severity denies (watchlist-actions.ts), the rules' DENIED, applied at
 * once (the case opens closed) or, under four-eyes on DENIED, pending for one person to confirm.
 */
function caseFacts({ screening, rules, rulesVersion, now }: CaseToOpen) {
  const alerting = screening.matches.filter((m) => m.suppressed_by === null);
  const assessment = assessCase({ matches: alerting, countryFlags: screening.country_flags, holds: screening.holds ?? [] }, rules);
  const denial = doorAction(screening, rules) === 'deny' ? ruleDenialReason(screening.matches, rules, rulesVersion) : null;
  const deniedNow = denial !== null && !rules.four_eyes.denied;
  const status: CaseStatus = deniedNow ? 'DENIED' : assessment.escalate ? 'ESCALATED' : 'OPEN';
  const fields = {
    screening_id: screening.id,
    status,
    priority: assessment.priority,
    priority_rank: assessment.rank,
    priority_reasons: assessment.reasons,
    // A case a country hold opened alone has no match to score.
    score: Math.max(0, ...alerting.map((m) => m.score)),
    lists: [...new Set(alerting.map((m) => m.list))],
    sla_due_at: new Date(now.getTime() + rules.sla_hours[assessment.priority] * 3_600_000),
    rules_version: rulesVersion,
    pending_decision: denial !== null && !deniedNow ? ruleDenialPending(denial, now) : null,
    updated_at: now,
    closed_at: deniedNow ? now : null,
  };
  // The history says the rules decided, and why; a pending one waits in `pending_decision`.
  const decided = deniedNow ? { disposition: 'DENIED', reason: denial } : { disposition: null, reason: null };
  return { status, assessment, fields, decided };
}

/** Opens the case of each screening's unsuppressed matches or country holds, all in two statements; answers the status each opened in. */
export async function openCases(trx: TenantTransaction, context: AuditContext, toOpen: readonly CaseToOpen[]): Promise<CaseStatus[]> {
  if (toOpen.length === 0) return [];
  const organizationId = context.actor.organizationId;
  const opened = toOpen.map((one) => {
    const { caseId, screening, rulesVersion, now } = one;
    const { status, assessment, fields, decided } = caseFacts(one);
    const row = { ...fields, ownership_check_id: null, id: caseId, source: screening.source, assignee: null, match_decisions: {}, created_at: now };
    const event = {
      action: 'opened',
      actor: actorName(context),
      from_status: null,
      to_status: status,
      ...decided,
      details: {
        priority: assessment.priority,
        priority_reasons: assessment.reasons,
        screening_id: screening.id,
        rules_version: rulesVersion,
        ...ruleMade(fields),
      },
      request_id: context.requestId,
      created_at: now,
    };
    return { row, event, announced: { case_id: caseId, screening_id: screening.id, source: screening.source, status, priority: assessment.priority } };
  });
  recordOpenedCases(trx, organizationId, opened);
  recordEvents(
    trx,
    organizationId,
    opened.map(({ announced }) => ({ type: 'case.opened' as const, data: announced, ...(context.requestId && { requestId: context.requestId }) })),
  );
  return opened.map(({ row }) => row.status);
}

/**
 * Reopens a decided case because a re-screen found a new or changed list entry for its subject:
 * the case takes the new screening, priority and SLA, keeps its history (and what was decided
 * before, in it), and the features following it react as to any status change.
 */
export async function reopenCase(
  trx: TenantTransaction,
  context: AuditContext,
  statusChanged: Pick<CaseStatusHook, 'run'>,
  toOpen: CaseToOpen,
): Promise<CaseStatus> {
  const { caseId, screening, rulesVersion, now } = toOpen;
  const row = await findCase(trx, caseId, { forUpdate: true });
  if (!row) throw new Error(`case ${caseId} to reopen is missing`);
  const { status, assessment, fields, decided } = caseFacts(toOpen);
  await updateCase(trx, caseId, fields);
  await appendCaseEvent(trx, context.actor.organizationId, caseId, {
    action: 'reopened',
    actor: actorName(context),
    from_status: row.status,
    to_status: status,
    ...decided,
    details: {
      screening_id: screening.id,
      previous_screening_id: row.screening_id,
      priority: assessment.priority,
      rules_version: rulesVersion,
      ...ruleMade(fields),
    },
    request_id: context.requestId,
    created_at: now,
  });
  recordAudit(trx, context, {
    action: 'case.reopened',
    target: { type: 'case', id: caseId },
    details: { from: row.status, to: status, screening_id: screening.id },
  });
  recordEvent(trx, context.actor.organizationId, {
    type: 'case.opened',
    data: { case_id: caseId, screening_id: screening.id, source: screening.source, status, priority: assessment.priority, reopened: true },
    ...(context.requestId && { requestId: context.requestId }),
  });
  await statusChanged.run(trx, context, { caseId, screeningId: screening.id, source: screening.source, from: row.status, to: status, disposition: null });
  return status;
}
