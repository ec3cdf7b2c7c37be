/**
 * Screening as a service: match against the loaded lists (refusing with 503 when none is
 * loaded, never answering a false "clear") under the organization's adjudication rules, then
 * store the answer, its audit record, its case (for a potential match no suppression covers) and
 * its `screening.completed` event in one tenant transaction.
 *
 * Other features screen through `screenIn`, inside their own transaction, so that what they
 * store (a visitor session, a workforce profile) commits together with its screening and case.
 */
import { type AuditContext, recordAudit } from '../../audit/audit.ts';
import { canonicalJson } from '../../canonical-json.ts';
import { sha256Hex } from '../../sha256.ts';
import type { TenantTransaction, WithTenant } from '../../db/tenant.ts';
import { recordEvent } from '../../events/outbox.ts';
import { AppError } from '../../http/errors.ts';
import type { ServiceRegistry } from '../../http/services.ts';
import { newId } from '../../ids.ts';
import { type ListCatalog, requireLists } from '../../lists/catalog.ts';
import { buildScreening, type ScreeningInput, type ScreeningSource } from './build-screening.ts';
import { presentScreening } from './present.ts';
import { findScreening, insertScreening, organizationName, screeningSummaries, type StoredScreening, upsertVendor } from './store.ts';

export type VendorInput = { input: ScreeningInput; externalId?: string; identifiers: Record<string, string> };
/** A stored screening with where its case stands now. */
export type ScreeningView = StoredScreening & { caseStatus: string | null };
export type VendorResult = { vendorId: string; stored: ScreeningView };

declare module '../../http/services.ts' {
  interface Services {
    screenings: ScreeningService;
  }
}

export function createScreeningService(withTenant: WithTenant, lists: ListCatalog, services: Pick<ServiceRegistry, 'get'>) {
  const adjudication = () => services.get('adjudication');

  async function screenIn(trx: TenantTransaction, context: AuditContext, input: ScreeningInput, source: ScreeningSource, now = new Date()): Promise<ScreeningView> {
    const snapshot = requireLists(lists);
    const { version, rules } = await adjudication().currentRules(trx);
    const built = buildScreening(snapshot, input, {
      source,
      requestId: context.requestId ?? 'none',
      actor: { kind: context.actor.kind, id: context.actor.id },
      now,
      thresholds: { ...rules.thresholds, rules_version: version },
    });
    const record = await adjudication().applySuppressions(trx, built, rules, now);
    const caseId = record.matches.some((m) => m.suppressed_by === null) ? newId('case', now.getTime()) : null;
    const audit = await recordAudit(trx, context, {
      action: 'screening.created',
      target: { type: 'screening', id: record.id },
      // Outcome and counts only: the names screened are personal data and stay in the screening row.
      details: { source, outcome: record.outcome, matches: record.matches.length, case_id: caseId, list_versions: record.list_versions.map((v) => v.version_id) },
    });
    const stored: StoredScreening = { record, recordSha256: sha256Hex(canonicalJson(record)), auditHash: audit.hash, caseId };
    await insertScreening(trx, context.actor.organizationId, stored);
    const caseStatus = caseId ? await adjudication().openCase(trx, context, { caseId, screening: record, rulesVersion: version, rules, now }) : null;
    await recordEvent(trx, context.actor.organizationId, {
      type: 'screening.completed',
      data: { screening_id: record.id, source, outcome: record.outcome, score: record.score, matches: record.matches.length, case_id: caseId, reference: record.reference },
      ...(context.requestId && { requestId: context.requestId }),
    });
    return { ...stored, caseStatus };
  }

  async function find(trx: TenantTransaction, id: string): Promise<ScreeningView | undefined> {
    const stored = await findScreening(trx, id);
    if (!stored) return undefined;
    return { ...stored, caseStatus: stored.caseId ? await adjudication().caseStatus(trx, stored.caseId) : null };
  }

  return {
    /** The loaded list codes; with none loaded, 503 before the request is even checked. */
    loadedLists: (): string[] => requireLists(lists).versions.map((v) => v.list),

    screenIn,
    find,
    summaries: screeningSummaries,
    /** The screening as the API shows it (GET /screenings/{id}). */
    presentScreening,

    screen: (context: AuditContext, input: ScreeningInput, source: ScreeningSource = 'prescreen'): Promise<ScreeningView> =>
      withTenant(context.actor, (trx) => screenIn(trx, context, input, source)),

    /** Every vendor screened and stored in one transaction: all of them, or none. */
    async screenVendors(context: AuditContext, vendors: VendorInput[]): Promise<VendorResult[]> {
      const now = new Date();
      return withTenant(context.actor, async (trx) => {
        const results: VendorResult[] = [];
        for (const vendor of vendors) {
          const stored = await screenIn(trx, context, vendor.input, 'vendor', now);
          const vendorId = await upsertVendor(trx, context.actor.organizationId, newId('ven'), {
            ...(vendor.externalId && { externalId: vendor.externalId }),
            name: vendor.input.company as string,
            ...(vendor.input.country && { country: vendor.input.country }),
            identifiers: vendor.identifiers,
            ...(vendor.input.reference && { reference: vendor.input.reference }),
            screeningId: stored.record.id,
          });
          results.push({ vendorId, stored });
        }
        return results;
      });
    },

    async get(context: AuditContext, id: string): Promise<ScreeningView> {
      return (await withTenant(context.actor, (trx) => find(trx, id))) ?? notFound(id);
    },

    /** The evidence rendered by `render`, audited in the same transaction once it rendered. */
    async evidence<T>(context: AuditContext, id: string, render: (view: ScreeningView, extra: EvidenceExtras) => Promise<T>): Promise<T> {
      return withTenant(context.actor, async (trx) => {
        const view = (await find(trx, id)) ?? notFound(id);
        const organization = { id: context.actor.organizationId, name: await organizationName(trx, context.actor.organizationId) };
        const adjudicationHistory = view.caseId ? await adjudication().caseHistory(trx, view.caseId) : undefined;
        const rendered = await render(view, { organization, ...(adjudicationHistory && { adjudication: adjudicationHistory }) });
        await recordAudit(trx, context, { action: 'screening.evidence_downloaded', target: { type: 'screening', id } });
        return rendered;
      });
    },
  };
}

export type ScreeningService = ReturnType<typeof createScreeningService>;

export type EvidenceExtras = {
  organization: { id: string; name: string };
  adjudication?: { case_id: string; status: string; history: { at: string; actor: string; action: string; disposition?: string; reason?: string }[] };
};

function notFound(id: string): never {
  throw new AppError('not_found', `There is no screening ${id} in your organization.`);
}
