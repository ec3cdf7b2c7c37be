/**
 * The determinations on record: a page of them, newest first, with filters, one whole with its
 * hash verified, and a vendor's current one. Reading them is audited: a graph names people and
 * companies.
 */
import { Type } from 'typebox';
import { auditContextOf } from '../../http/audit-context.ts';
import { decodeCursor, isIdPosition } from '../../http/cursor.ts';
import type { Api } from '../../http/feature.ts';
import { cursorPage } from '../../http/list-page.ts';
import { presentCheckSummary, presentStoredCheck } from './check-present.ts';
import { CheckParams, ChecksPage, ChecksQuery, StoredCheckSchema, VendorOwnershipSchema, VendorParams } from './check-schemas.ts';
import type { OwnershipService } from './service.ts';

const TAGS = ['ownership'];

export function registerCheckRoutes(api: Api, service: OwnershipService) {
  api.get(
    '/ownership/checks',
    {
      config: { tier: 'enterprise', permission: 'read', auditRead: { action: 'ownership_check.listed', target: 'ownership_check', list: true } },
      schema: {
        tags: TAGS,
        summary: 'List stored ownership determinations',
        description:
          'Newest first, with cursor pages and filters: `q` (the target’s name contains), `target_id`, `status`, `vendor_id`, `checked_after`, `checked_before`, ' +
          '`current` (not superseded by a re-evaluation). Each item says what was decided and when, never the graph: GET /ownership/checks/{id} for the record.',
        querystring: ChecksQuery,
        response: { 200: ChecksPage },
      },
    },
    async (request) => {
      const { limit = 50, cursor, q, target_id: targetId, status, vendor_id: vendorId, checked_after: after, checked_before: before, current } = request.query;
      const afterId = cursor ? decodeCursor(cursor, 'the determination list', isIdPosition).i : undefined;
      const filters = {
        ...(q && { q }),
        ...(targetId && { targetId }),
        ...(status && { status }),
        ...(vendorId && { vendorId }),
        ...(after && { checkedAfter: new Date(after) }),
        ...(before && { checkedBefore: new Date(before) }),
        ...(current !== undefined && { current }),
      };
      const rows = await service.list(auditContextOf(request), filters, { limit: limit + 1, ...(afterId && { afterId }) });
      return cursorPage(rows, limit, presentCheckSummary, (row) => ({ i: row.id }));
    },
  );

  api.get(
    '/ownership/checks/:id',
    {
      config: { tier: 'enterprise', permission: 'read', auditRead: { action: 'ownership_check.viewed', target: 'ownership_check' } },
      schema: {
        tags: TAGS,
        summary: 'Get a stored ownership determination',
        description:
          'The question as asked (the graph as submitted), the answer as given (both verdicts, their paths and warnings, the list versions and screening matches used), ' +
          'who asked and when, the SHA-256 of the canonical record and whether the record read back still hashes to it (`record_sha256_verified`). ' +
          'A re-evaluation that changed the verdict is linked both ways (`supersedes`, `superseded_by`). Another organization’s id answers 404.',
        params: CheckParams,
        response: { 200: StoredCheckSchema },
      },
    },
    async (request) => presentStoredCheck(await service.get(auditContextOf(request), request.params.id)),
  );

  api.get(
    '/ownership/checks/:id/evidence',
    {
      config: {
        tier: 'enterprise',
        permission: 'read',
        auditRead: { action: 'ownership_check.evidence_downloaded', target: 'ownership_check', recordedByHandler: true },
      },
      schema: {
        tags: TAGS,
        summary: "Download a stored determination's evidence as PDF",
        description:
          'A PDF for an auditor: the question (target, as-of date, who asked and when), the rules applied with their dated status (the BIS Affiliates Rule’s ' +
          'effective, suspended and reinstated dates and sources), the drawn ownership graph, the aggregate percentages with the arithmetic shown, the deciding ' +
          'paths, the parties and the list entries screening matched, the warnings, the list versions with their SHA-256, and the SHA-256 of the record. ' +
          "The same record renders to the same bytes while the organization's name is unchanged. Each download is audited.",
        params: CheckParams,
        produces: ['application/pdf'],
        response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The PDF.' }) },
      },
    },
    async (request, reply) => {
      const pdf = await service.evidencePdf(auditContextOf(request), request.params.id);
      return reply.type('application/pdf').header('content-disposition', `attachment; filename="gatehouse-ownership-${request.params.id}.pdf"`).send(pdf);
    },
  );

  api.get(
    '/vendors/:id/ownership',
    {
      config: { tier: 'enterprise', permission: 'read' },
      schema: {
        tags: TAGS,
        summary: "A vendor's ownership status",
        description:
          'The status of the newest determination attached to the vendor (POST /ownership/check with `vendor_id`) that no re-evaluation superseded: when a list change ' +
          'flips it, this follows. `unknown` when none is attached. Another organization’s vendor answers 404.',
        params: VendorParams,
        response: { 200: VendorOwnershipSchema },
      },
    },
    async (request) => {
      const current = await service.vendorOwnership(auditContextOf(request), request.params.id);
      return {
        object: 'vendor_ownership' as const,
        vendor_id: request.params.id,
        status: current?.status ?? ('unknown' as const),
        determination: current ? presentCheckSummary(current) : null,
      };
    },
  );
}
