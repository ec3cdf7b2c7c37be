/**
 * Working a case: dispositions (with four-eyes review), assignment and notes. Each change locks
 * the case row, writes its history, its audit record and its event, and lets other features
 * react (a visitor session follows its case) in the same transaction.
 */
import { type AuditContext, recordAudit } from '../../audit/audit.ts';
import { answerablePerson } from '../../auth/answerable-person.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import { recordEvent } from '../../events/outbox.ts';
import { AppError, type FieldError } from '../../http/errors.ts';
import { newId } from '../../ids.ts';
import { actorName, type ScreeningForCase } from '../cases/case-opening.ts';
import type { Disposition, MatchDecision, PendingDecision } from '../cases/case-record.ts';
import { appendCaseEvent, type CaseRow, findCase, updateCase } from '../cases/case-store.ts';
import { subjectFingerprint } from '../cases/fingerprint.ts';
import type { AdjudicationRules } from '../cases/rules.ts';
import { rulesAt } from '../cases/rules-store.ts';
import type { CaseStatusHook } from '../cases/status-hook.ts';
import { insertSuppressions, type NewSuppression } from '../cases/suppression-store.ts';
import type { ScreeningService } from '../screenings/service.ts';
import { decide, OPEN_STATUSES, proposerPerson } from './decision.ts';

export type DispositionRequest = {
  disposition: Disposition;
  reason: string;
  matches?: { match_id: string; decision: MatchDecision }[];
  assignee?: string;
};

/** What a caller learns: the case after the change, and whether the disposition took effect or waits for a second reviewer. */
export type DispositionResult = { row: CaseRow; outcome: 'applied' | 'pending_second_review' };

/** What working a case needs: its screening, and the hook a status change runs (visitor sessions follow it). */
export type CaseWorkDeps = { screenings: Pick<ScreeningService, 'find'>; statusChanged: Pick<CaseStatusHook, 'run'> };

export async function lockCase(trx: TenantTransaction, id: string): Promise<CaseRow> {
  const row = await findCase(trx, id, { forUpdate: true });
  if (!row) throw new AppError('not_found', `There is no case ${id} in your organization.`);
  return row;
}

/** The screening a case is about; null for a case about an ownership determination, which has no matches to decide. */
export async function caseScreening(trx: TenantTransaction, screenings: CaseWorkDeps['screenings'], row: CaseRow): Promise<ScreeningForCase | null> {
  if (row.screening_id === null) return null;
  const view = await screenings.find(trx, row.screening_id);
  if (!view) throw new Error(`case ${row.id} refers to screening ${row.screening_id}, which is missing`);
  return view.record;
}

export async function applyDisposition(
  trx: TenantTransaction,
  context: AuditContext,
  deps: CaseWorkDeps,
  id: string,
  request: DispositionRequest,
  now: Date,
): Promise<DispositionResult> {
  const organizationId = context.actor.organizationId;
  const actor = actorName(context);
  const row = await lockCase(trx, id);
  const screening = await caseScreening(trx, deps.screenings, row);
  const matches = screening?.matches ?? [];
  const matchDecisions = checkedMatchDecisions(request.matches ?? [], matches);
  const { rules } = await rulesAt(trx, row.rules_version);
  const reviewer = { actor, person: await answerablePerson(trx, context.actor) };
  const decision = decide({ status: row.status, score: row.score, pending: row.pending_decision }, { ...request, matchDecisions }, reviewer, rules, now);
  const base = { actor, request_id: context.requestId, created_at: now, disposition: request.disposition, reason: request.reason };
  const assignee = request.assignee !== undefined ? { assignee: request.assignee } : {};

  if (decision.kind === 'pending') {
    await updateCase(trx, id, { pending_decision: decision.pending, ...assignee, updated_at: now });
    await appendCaseEvent(trx, organizationId, id, {
      ...base,
      action: 'decision_pending',
      from_status: row.status,
      to_status: row.status,
      details: {
        requires_second_reviewer: decision.pending.requires_second_reviewer,
        proposed_by_person: decision.pending.person,
        ...(decision.supersedes && { supersedes: decision.supersedes }),
      },
    });
    recordAudit(trx, context, {
      action: 'case.decision_proposed',
      target: { type: 'case', id },
      details: {
        disposition: request.disposition,
        status: row.status,
        requires_second_reviewer: decision.pending.requires_second_reviewer,
        proposed_by_person: decision.pending.person,
      },
    });
    return { row: { ...row, pending_decision: decision.pending, ...assignee, updated_at: now }, outcome: 'pending_second_review' };
  }

  const closes = decision.to === 'CLEARED' || decision.to === 'DENIED';
  const effective = { ...row.match_decisions, ...decision.matchDecisions };
  if (decision.to === 'CLEARED') {
    // Clearing says the subject is not the listed party: every match not called a true match was a false positive.
    for (const match of matches) effective[match.id] ??= 'false_positive';
    if (screening) await insertSuppressions(trx, organizationId, suppressionsFor(screening, effective, rules, { caseId: id, actor, now }));
  }
  const changes = { status: decision.to, pending_decision: null, match_decisions: effective, ...assignee, updated_at: now, ...(closes && { closed_at: now }) };
  await updateCase(trx, id, changes);
  await appendCaseEvent(trx, organizationId, id, {
    ...base,
    action: 'disposition_applied',
    from_status: row.status,
    to_status: decision.to,
    details: {
      match_decisions: decision.matchDecisions,
      ...(decision.confirms && { confirms: decision.confirms, reviewers: reviewersOf(decision.confirms, reviewer.person) }),
    },
  });
  recordAudit(trx, context, {
    action: 'case.disposition_applied',
    target: { type: 'case', id },
    details: {
      disposition: request.disposition,
      from: row.status,
      to: decision.to,
      ...(decision.confirms && { first_reviewer: decision.confirms.actor, reviewers: reviewersOf(decision.confirms, reviewer.person) }),
    },
  });
  recordEvent(trx, organizationId, {
    type: 'case.disposition_applied',
    data: { case_id: id, ...caseSubject(row), disposition: request.disposition, status: decision.to },
    ...(context.requestId && { requestId: context.requestId }),
  });
  await deps.statusChanged.run(trx, context, {
    caseId: id,
    screeningId: row.screening_id,
    source: row.source,
    from: row.status,
    to: decision.to,
    disposition: request.disposition,
  });
  return { row: { ...row, ...changes }, outcome: 'applied' };
}

/** What a case's events name it by: its screening, or the ownership determination it is about. */
const caseSubject = (row: CaseRow) => ({ screening_id: row.screening_id, ...(row.ownership_check_id && { ownership_check_id: row.ownership_check_id }) });

/** The two people of a four-eyes decision, proposer first (the proposing credential when no person answers for it). */
const reviewersOf = (confirms: PendingDecision, second: string | null) => [proposerPerson(confirms) ?? confirms.actor, second];

export async function assignCase(trx: TenantTransaction, context: AuditContext, id: string, assignee: string | null, now: Date): Promise<CaseRow> {
  const row = await lockCase(trx, id);
  if (!OPEN_STATUSES.includes(row.status)) throw new AppError('conflict', `Case ${id} is ${row.status}, closed: there is nothing left to assign.`);
  await updateCase(trx, id, { assignee, updated_at: now });
  await appendCaseEvent(trx, context.actor.organizationId, id, {
    action: 'assigned',
    actor: actorName(context),
    from_status: row.status,
    to_status: row.status,
    disposition: null,
    reason: null,
    details: { assignee, previous: row.assignee },
    request_id: context.requestId,
    created_at: now,
  });
  recordAudit(trx, context, { action: 'case.assigned', target: { type: 'case', id }, details: { assignee, previous: row.assignee } });
  return { ...row, assignee, updated_at: now };
}

export async function addNote(trx: TenantTransaction, context: AuditContext, id: string, text: string, now: Date): Promise<CaseRow> {
  const row = await lockCase(trx, id);
  await appendCaseEvent(trx, context.actor.organizationId, id, {
    action: 'note',
    actor: actorName(context),
    from_status: row.status,
    to_status: row.status,
    disposition: null,
    reason: text,
    details: {},
    request_id: context.requestId,
    created_at: now,
  });
  await updateCase(trx, id, { updated_at: now });
  // The note's words stay in the case's history; the audit trail records that one was written.
  recordAudit(trx, context, { action: 'case.note_added', target: { type: 'case', id }, details: { length: text.length } });
  return { ...row, updated_at: now };
}

/** Per-match decisions keyed by match id; an id that is not one of the case's matches is a 400 naming it. */
function checkedMatchDecisions(decisions: NonNullable<DispositionRequest['matches']>, matches: ScreeningForCase['matches']): Record<string, MatchDecision> {
  const known = new Set(matches.map((m) => m.id));
  const errors: FieldError[] = [];
  const result: Record<string, MatchDecision> = {};
  decisions.forEach(({ match_id: matchId, decision }, i) => {
    if (!known.has(matchId)) {
      const matches =
        known.size > 0
          ? `its matches: ${[...known].join(', ')}`
          : 'it has no name match (a country rule holds its subject, or it is about an ownership determination): decide it without `matches`';
      errors.push({ pointer: `/matches/${i}/match_id`, detail: `${matchId} is not a match of this case; ${matches}`, in: 'body' });
    } else if (result[matchId] !== undefined) errors.push({ pointer: `/matches/${i}/match_id`, detail: `${matchId} is decided twice`, in: 'body' });
    else result[matchId] = decision;
  });
  if (errors.length > 0)
    throw new AppError('validation_failed', `The disposition has ${errors.length === 1 ? 'a problem' : `${errors.length} problems`}.`, { errors });
  return result;
}

function suppressionsFor(
  screening: ScreeningForCase,
  decisions: Record<string, MatchDecision>,
  rules: AdjudicationRules,
  by: { caseId: string; actor: string; now: Date },
): NewSuppression[] {
  if (!rules.suppressions.enabled) return [];
  const days = rules.suppressions.expire_after_days;
  const expiresAt = days === null ? null : new Date(by.now.getTime() + days * 86_400_000);
  return screening.matches
    .filter((m) => m.suppressed_by === null && decisions[m.id] === 'false_positive')
    .map((m) => ({
      id: newId('sup', by.now.getTime()),
      subject_fingerprint: subjectFingerprint(screening.input, m.field),
      list: m.list,
      entry_id: m.entry_id,
      entry_sha256: m.entry_sha256,
      case_id: by.caseId,
      created_by: by.actor,
      created_at: by.now,
      expires_at: expiresAt,
    }));
}
