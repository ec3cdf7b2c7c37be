/**
 * Adjudication as a service: what the API and the console call (the rules, the queue, a case,
 * dispositions, assignment, notes), each in one tenant transaction. What every screening calls
 * inside its own transaction (rules, suppressions, opening a case) is below, in src/features/cases.
 */
import type { Static } from 'typebox';
import { type AuditContext, recordAudit } from '../../audit/audit.ts';
import type { TenantTransaction, WithTenant } from '../../db/tenant.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { AppError } from '../../http/errors.ts';
import { actorName } from '../cases/case-opening.ts';
import { type CaseRow, caseEvents, findCase, type QueueFilters, type QueuePosition, queuePage, queueTotals } from '../cases/case-store.ts';
import type { CaseDeterminations } from '../cases/determination-case.ts';
import { completeRules, type RulesBody, ruleProblems } from '../cases/rules.ts';
import { appendRules, currentRules, rulesAt } from '../cases/rules-store.ts';
import type { CaseStatusHook } from '../cases/status-hook.ts';
import type { ScreeningService } from '../screenings/service.ts';
import { addNote, applyDisposition, assignCase, type DispositionRequest } from './case-service.ts';
import { allowedDispositions } from './decision.ts';
import { presentCase, presentCaseDetail } from './present.ts';
import type { QueueQuery as QueueQuerySchema } from './schemas.ts';

/**
 * What adjudication needs: a case's subject, shown as the API shows it (its screening, or the
 * ownership determination it is about), and the hook a disposition runs (visitor sessions follow it).
 */
export type AdjudicationDeps = {
  screenings: Pick<ScreeningService, 'find' | 'presentScreening' | 'summaries'>;
  determinations: CaseDeterminations;
  statusChanged: Pick<CaseStatusHook, 'run'>;
};

/** The queue's filters and page as GET /adjudication/queue takes them (schemas.ts QueueQuery); the console asks the same way. */
export type QueueQuery = Static<typeof QueueQuerySchema>;

const isPosition = (value: unknown): value is { r: number; c: string; i: string } => {
  const v = value as { r?: unknown; c?: unknown; i?: unknown } | null;
  return typeof v === 'object' && v !== null && Number.isInteger(v.r) && typeof v.c === 'string' && !Number.isNaN(Date.parse(v.c)) && typeof v.i === 'string';
};

export function createAdjudicationService(withTenant: WithTenant, deps: AdjudicationDeps, loadedLists: () => string[]) {
  const { screenings, determinations } = deps;
  const caseDetail = async (trx: TenantTransaction, id: string, now: Date) => {
    const row = await findCase(trx, id);
    if (!row) throw new AppError('not_found', `There is no case ${id} in your organization.`);
    const [history, rules] = [await caseEvents(trx, id), await rulesAt(trx, row.rules_version)];
    const view = row.screening_id === null ? undefined : await screenings.find(trx, row.screening_id);
    const determination = row.ownership_check_id === null ? null : await determinations.present(trx, row.ownership_check_id);
    return presentCaseDetail(row, now, { history, screening: view ? screenings.presentScreening(view) : null, determination, rules });
  };

  /** Each case's subject as the queue names it: what its screening screened, or its determination's target. */
  const subjectsOf = async (trx: TenantTransaction, rows: CaseRow[]) => {
    const screened = rows.flatMap((r) => (r.screening_id === null ? [] : [r.screening_id]));
    const determined = rows.flatMap((r) => (r.ownership_check_id === null ? [] : [r.ownership_check_id]));
    const summaries = new Map((await screenings.summaries(trx, screened)).map((s) => [s.id, s]));
    const targets = determined.length > 0 ? await determinations.subjects(trx, determined) : new Map();
    return (row: CaseRow) => {
      if (row.ownership_check_id !== null) return { subject: targets.get(row.ownership_check_id) ?? null, top_match: null };
      const summary = row.screening_id === null ? undefined : summaries.get(row.screening_id);
      return { subject: summary?.input ?? null, top_match: summary?.top_match ?? null };
    };
  };

  const queue = (context: AuditContext, filters: QueueFilters, after: QueuePosition | undefined, limit: number) =>
    withTenant(context.actor, async (trx) => {
      const rows = await queuePage(trx, filters, after, limit + 1);
      const page = rows.slice(0, limit);
      const subjectOf = await subjectsOf(trx, page);
      const totals = await queueTotals(trx, filters);
      const data = page.map((row) => ({ ...presentCase(row, filters.now), ...subjectOf(row) }));
      const last = page.at(-1);
      return { data, has_more: rows.length > limit, last: last && { rank: last.priority_rank, createdAt: last.created_at, id: last.id }, totals };
    });

  return {
    /** What a case in this status may become (the state machine of decision.ts), for forms that offer only those. */
    allowedDispositions,

    getRules: (context: AuditContext) => withTenant(context.actor, (trx) => currentRules(trx)),

    putRules(context: AuditContext, body: RulesBody) {
      const rules = completeRules(body);
      const problems = ruleProblems(rules, loadedLists());
      if (problems.length > 0) {
        throw new AppError(
          'validation_failed',
          `The rules have ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}: ${problems.map((p) => `${p.pointer} ${p.detail}`).join('; ')}.`,
          {
            errors: problems.map((p) => ({ ...p, in: 'body' as const })),
          },
        );
      }
      return withTenant(context.actor, async (trx) => {
        const written = await appendRules(trx, context.actor.organizationId, rules, { actor: actorName(context), requestId: context.requestId });
        recordAudit(trx, context, {
          action: 'adjudication_rules.updated',
          target: { type: 'adjudication_rules', id: String(written.version) },
          details: { version: written.version, rules },
        });
        return written;
      });
    },

    queue,

    /** A page of the queue from the query's filters and cursor, with the cursor of the next page. */
    async queueFromQuery(context: AuditContext, q: QueueQuery, now = new Date()) {
      const after: QueuePosition | undefined = q.cursor
        ? (({ r, c, i }) => ({ rank: r, createdAt: new Date(c), id: i }))(decodeCursor(q.cursor, 'the queue', isPosition))
        : undefined;
      const filters: QueueFilters = {
        statuses: q.status ?? ['OPEN', 'ESCALATED'],
        ...(q.assignee !== undefined && { assignee: q.assignee }),
        ...(q.min_score !== undefined && { minScore: q.min_score }),
        ...(q.list !== undefined && { list: q.list.toUpperCase() }),
        ...(q.source !== undefined && { source: q.source }),
        ...(q.created_after !== undefined && { createdAfter: new Date(q.created_after) }),
        ...(q.created_before !== undefined && { createdBefore: new Date(q.created_before) }),
        ...(q.overdue !== undefined && { overdue: q.overdue }),
        now,
      };
      const page = await queue(context, filters, after, q.limit ?? 50);
      const next = page.has_more && page.last ? encodeCursor({ r: page.last.rank, c: page.last.createdAt.toISOString(), i: page.last.id }) : null;
      return { object: 'list' as const, data: page.data, has_more: page.has_more, next_cursor: next, totals: page.totals };
    },

    getCase: (context: AuditContext, id: string, now = new Date()) => withTenant(context.actor, (trx) => caseDetail(trx, id, now)),

    dispose(context: AuditContext, id: string, request: DispositionRequest, now = new Date()) {
      return withTenant(context.actor, async (trx) => {
        const { outcome } = await applyDisposition(trx, context, deps, id, request, now);
        return { outcome, detail: await caseDetail(trx, id, now) };
      });
    },

    assign: (context: AuditContext, id: string, assignee: string | null, now = new Date()) =>
      withTenant(context.actor, async (trx) => {
        await assignCase(trx, context, id, assignee, now);
        return caseDetail(trx, id, now);
      }),

    note: (context: AuditContext, id: string, text: string, now = new Date()) =>
      withTenant(context.actor, async (trx) => {
        await addNote(trx, context, id, text, now);
        return caseDetail(trx, id, now);
      }),
  };
}

export type AdjudicationService = ReturnType<typeof createAdjudicationService>;
