/**
 * A case, its disposition form and its evidence PDF. Decisions go through the adjudication
 * service exactly as POST /api/v1/adjudication/{id}/disposition does (its state machine, four-eyes
 * review, the visitor sessions that follow the case, the audit record and the event), with the
 * same refusal of the viewer role.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { auditContextOf } from '../../../http/audit-context.ts';
import { AppError } from '../../../http/errors.ts';
import type { Api } from '../../../http/feature.ts';
import type { ListCatalog } from '../../../lists/catalog.ts';
import type { AdjudicationService } from '../../adjudication/service.ts';
import type { OwnershipService } from '../../ownership/service.ts';
import type { ScreeningService } from '../../screenings/service.ts';
import type { SessionService } from '../../visitor-sessions/service.ts';
import { csrfField, type Notice, sendPage, type Viewer } from '../layout.ts';
import { type CaseView, caseBody, caseTitle } from '../views/case-view.ts';

const CaseParams = Type.Object({ id: Type.String({ pattern: '^case_[0-9a-z]{26}$' }) });
const CaseQuery = Type.Object({ done: Type.Optional(Type.String({ enum: ['applied', 'pending'] })) });
const DispositionForm = Type.Object({
  _csrf: Type.String({ maxLength: 200 }),
  disposition: Type.String({ enum: ['CLEARED', 'ESCALATED', 'DENIED'] }),
  reason: Type.String({ maxLength: 2000 }),
});

const DONE: Record<string, Notice> = {
  applied: { kind: 'status', text: 'Your decision is applied.' },
  pending: { kind: 'status', text: 'Your decision is recorded. It takes effect when a second person confirms it.' },
};

/** The refusals a person can act on: shown on the case, beside the form, rather than on a page of their own. */
const SHOWN_ON_CASE = new Set(['validation_failed', 'invalid_transition', 'second_reviewer_required', 'conflict', 'forbidden']);

export type CasePagesDeps = {
  adjudication: Pick<AdjudicationService, 'getCase' | 'allowedDispositions' | 'dispose'>;
  visitorSessions: Pick<SessionService, 'list'>;
  screenings: Pick<ScreeningService, 'evidencePdf'>;
  ownership: Pick<OwnershipService, 'evidencePdf'>;
  lists: ListCatalog;
};

export function registerCasePages(api: Api, deps: CasePagesDeps) {
  const { adjudication } = deps;

  async function showCase(request: FastifyRequest, reply: FastifyReply, id: string, extra: { notice?: Notice; status?: number; form?: CaseView['form'] } = {}) {
    const context = auditContextOf(request);
    const now = new Date();
    const detail = await adjudication.getCase(context, id, now);
    const sessions = await deps.visitorSessions.list(context, { caseId: id }, undefined, 20);
    const view: CaseView = {
      detail,
      viewer: request.viewer as Viewer,
      allowed: adjudication.allowedDispositions(detail.status),
      sessions,
      snapshot: deps.lists.current(),
      csrf: csrfField(request, reply),
      now,
      ...(extra.form && { form: extra.form }),
    };
    return sendPage(request, reply, { title: caseTitle(detail), section: 'queue', notice: extra.notice, status: extra.status ?? 200, body: caseBody(view) });
  }

  api.get(
    '/cases/:id',
    {
      config: { tier: 'defense', permission: 'read', auditRead: { action: 'case.viewed', target: 'case' } },
      schema: { params: CaseParams, querystring: CaseQuery },
    },
    async (request, reply) => {
      const done = request.query.done;
      return showCase(request, reply, request.params.id, done ? { notice: DONE[done] as Notice } : {});
    },
  );

  api.post(
    '/cases/:id/disposition',
    { config: { tier: 'defense', permission: 'decide' }, schema: { params: CaseParams, body: DispositionForm } },
    async (request, reply) => {
      const { id } = request.params;
      const form = { disposition: request.body.disposition, reason: request.body.reason };
      try {
        const reason = form.reason.trim();
        if (reason === '')
          throw new AppError('validation_failed', 'Give a reason: an auditor will read it.', { errors: [{ pointer: '/reason', detail: 'must not be blank' }] });
        const { outcome } = await adjudication.dispose(auditContextOf(request), id, {
          disposition: form.disposition as 'CLEARED' | 'ESCALATED' | 'DENIED',
          reason,
        });
        return reply.redirect(`/console/cases/${id}?done=${outcome === 'applied' ? 'applied' : 'pending'}`, 303);
      } catch (error) {
        if (!(error instanceof AppError) || !SHOWN_ON_CASE.has(error.code)) throw error;
        return showCase(request, reply, id, { notice: { kind: 'alert', text: error.detail }, status: error.status, form });
      }
    },
  );

  api.get(
    '/cases/:id/evidence',
    {
      config: { tier: 'defense', permission: 'read', auditRead: { action: 'screening.evidence_downloaded', target: 'case', recordedByHandler: true } },
      schema: { params: CaseParams },
    },
    async (request, reply) => {
      const context = auditContextOf(request);
      const detail = await adjudication.getCase(context, request.params.id);
      // A case about an ownership determination downloads the determination's evidence (its own audited read).
      const subject = detail.ownership_check_id ?? (detail.screening_id as string);
      const pdf = detail.ownership_check_id
        ? await deps.ownership.evidencePdf(context, detail.ownership_check_id)
        : await deps.screenings.evidencePdf(context, subject);
      return reply.type('application/pdf').header('content-disposition', `attachment; filename="gatehouse-evidence-${subject}.pdf"`).send(pdf);
    },
  );
}
