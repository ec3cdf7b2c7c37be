/**
 * Screening as a service: match against the loaded lists (refusing with 503 when none is
 * loaded, never answering a false "clear"), then store the answer, its audit record and its
 * `screening.completed` event in one tenant transaction.
 */
import { type AuditContext, recordAudit } from '../../audit/audit.ts';
import { canonicalJson } from '../../canonical-json.ts';
import { sha256Hex } from '../../sha256.ts';
import type { TenantTransaction, WithTenant } from '../../db/tenant.ts';
import { recordEvent } from '../../events/outbox.ts';
import { AppError } from '../../http/errors.ts';
import { newId } from '../../ids.ts';
import { type ListCatalog, requireLists } from '../../lists/catalog.ts';
import { buildScreening, type ScreeningInput, type ScreeningRecord, type ScreeningSource } from './build-screening.ts';
import { findScreening, insertScreening, organizationName, type StoredScreening, upsertVendor } from './store.ts';

export type VendorInput = { input: ScreeningInput; externalId?: string; identifiers: Record<string, string> };
export type VendorResult = { vendorId: string; stored: StoredScreening };

export function createScreeningService(withTenant: WithTenant, lists: ListCatalog) {
  const build = (context: AuditContext, input: ScreeningInput, source: ScreeningSource, now: Date): ScreeningRecord =>
    buildScreening(requireLists(lists), input, {
      source,
      requestId: context.requestId ?? 'none',
      actor: { kind: context.actor.kind, id: context.actor.id },
      now,
    });

  return {
    /** The loaded list codes; with none loaded, 503 before the request is even checked. */
    loadedLists: (): string[] => requireLists(lists).versions.map((v) => v.list),

    async screen(context: AuditContext, input: ScreeningInput, source: ScreeningSource = 'prescreen'): Promise<StoredScreening> {
      const record = build(context, input, source, new Date());
      return withTenant(context.actor, (trx) => store(trx, context, record));
    },

    /** Every vendor screened and stored in one transaction: all of them, or none. */
    async screenVendors(context: AuditContext, vendors: VendorInput[]): Promise<VendorResult[]> {
      const now = new Date();
      const records = vendors.map((vendor) => build(context, vendor.input, 'vendor', now));
      return withTenant(context.actor, async (trx) => {
        const results: VendorResult[] = [];
        for (const [i, vendor] of vendors.entries()) {
          const record = records[i] as ScreeningRecord;
          const stored = await store(trx, context, record);
          const vendorId = await upsertVendor(trx, context.actor.organizationId, newId('ven'), {
            ...(vendor.externalId && { externalId: vendor.externalId }),
            name: vendor.input.company as string,
            ...(vendor.input.country && { country: vendor.input.country }),
            identifiers: vendor.identifiers,
            ...(vendor.input.reference && { reference: vendor.input.reference }),
            screeningId: record.id,
          });
          results.push({ vendorId, stored });
        }
        return results;
      });
    },

    async get(context: AuditContext, id: string): Promise<StoredScreening> {
      return (await withTenant(context.actor, (trx) => findScreening(trx, id))) ?? notFound(id);
    },

    /** The evidence rendered by `render`, audited in the same transaction once it rendered. */
    async evidence<T>(context: AuditContext, id: string, render: (stored: StoredScreening, organization: { id: string; name: string }) => Promise<T>): Promise<T> {
      return withTenant(context.actor, async (trx) => {
        const stored = (await findScreening(trx, id)) ?? notFound(id);
        const rendered = await render(stored, { id: context.actor.organizationId, name: await organizationName(trx, context.actor.organizationId) });
        await recordAudit(trx, context, { action: 'screening.evidence_downloaded', target: { type: 'screening', id } });
        return rendered;
      });
    },
  };
}

export type ScreeningService = ReturnType<typeof createScreeningService>;

async function store(trx: TenantTransaction, context: AuditContext, record: ScreeningRecord): Promise<StoredScreening> {
  const organizationId = context.actor.organizationId;
  const audit = await recordAudit(trx, context, {
    action: 'screening.created',
    target: { type: 'screening', id: record.id },
    // Outcome and counts only: the names screened are personal data and stay in the screening row.
    details: { source: record.source, outcome: record.outcome, matches: record.matches.length, list_versions: record.list_versions.map((v) => v.version_id) },
  });
  const stored: StoredScreening = {
    record,
    recordSha256: sha256Hex(canonicalJson(record)),
    auditHash: audit.hash,
    caseId: null,
    needsCase: record.outcome === 'potential_match',
  };
  await insertScreening(trx, organizationId, stored);
  await recordEvent(trx, organizationId, {
    type: 'screening.completed',
    data: { screening_id: record.id, source: record.source, outcome: record.outcome, score: record.score, matches: record.matches.length, reference: record.reference },
    ...(context.requestId && { requestId: context.requestId }),
  });
  return stored;
}

function notFound(id: string): never {
  throw new AppError('not_found', `There is no screening ${id} in your organization.`);
}
