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
import { recordingEventHash } from '../../audit/audit-store.ts';
import type { TenantTransaction, WithTenant } from '../../db/tenant.ts';
import type { EvidenceInput } from '../../evidence/evidence-input.ts';
import { AppError } from '../../http/errors.ts';
import { newId } from '../../ids.ts';
import { type ListCatalog, requireLists } from '../../lists/catalog.ts';
import type { ListFreshnessMonitor } from '../../lists/freshness.ts';
import type { CaseService } from '../cases/service.ts';
import { watchlistVersionId } from '../watchlists/version-reads.ts';
import type { WatchlistIndexes } from '../watchlists/watchlist-indexes.ts';
import { type PipelineCases, screenMany as runPipeline, type ScreeningView, type ScreenOptions } from './pipeline.ts';
import { presentScreening } from './present.ts';
import type { ScreeningInput, ScreeningSource } from './screening-record.ts';
import { findScreening, organizationName, screeningSummaries, upsertVendor } from './store.ts';

export type VendorInput = { input: ScreeningInput; externalId?: string };
export type VendorResult = { vendorId: string; stored: ScreeningView };

/**
 * What screening needs of cases: the pipeline's, a case's status for a screening read back, its
 * history for the evidence; and the organizations' watchlist indexes, screened beside the lists.
 */
export type ScreeningDeps = { cases: PipelineCases & Pick<CaseService, 'caseStatus' | 'caseHistory'>; watchlists: Pick<WatchlistIndexes, 'of'> };

/** Renders a screening's evidence document (the PDF renderer, evidence-input.ts, given by the composition root). */
export type EvidenceRenderer = (view: ScreeningView, extras: EvidenceExtras) => Promise<Buffer>;

export function createScreeningService(
  withTenant: WithTenant,
  lists: { catalog: ListCatalog; freshness: Pick<ListFreshnessMonitor, 'report'> },
  { cases, watchlists }: ScreeningDeps,
  renderEvidence: EvidenceRenderer,
) {
  const freshness = (now: Date) => lists.freshness.report(now);

  const screenMany = async (trx: TenantTransaction, context: AuditContext, inputs: ScreeningInput[], source: ScreeningSource, options: ScreenOptions = {}) => {
    const snapshot = options.snapshot ?? requireLists(lists.catalog);
    // The organization's watchlists, unless the options say which (a re-screen against changed entries names its own, or none):
    // while they are current, a look-up with no statement.
    const held = options.watchlists || options.snapshot ? options.watchlists : watchlists.of(trx);
    const organizationWatchlists = held instanceof Promise ? await held : held;
    return runPipeline(trx, context, cases, snapshot, freshness, inputs, source, {
      ...options,
      ...(organizationWatchlists && { watchlists: organizationWatchlists }),
    });
  };

  const screenIn = async (
    trx: TenantTransaction,
    context: AuditContext,
    input: ScreeningInput,
    source: ScreeningSource,
    now = new Date(),
  ): Promise<ScreeningView> => (await screenMany(trx, context, [input], source, { now }))[0] as ScreeningView;

  async function find(trx: TenantTransaction, id: string): Promise<ScreeningView | undefined> {
    const stored = await findScreening(trx, id);
    if (!stored) return undefined;
    return { ...stored, caseStatus: stored.caseId ? await cases.caseStatus(trx, stored.caseId) : null };
  }

  return {
    /** The loaded list codes; with none loaded, 503 before the request is even checked. */
    loadedLists: (): string[] => requireLists(lists.catalog).versions.map((v) => v.list),

    screenIn,
    screenMany,
    /** The version ids a screening in this transaction would consult: every loaded list's and each active watchlist's. */
    async versionsNow(trx: TenantTransaction): Promise<string[]> {
      const publicIds = requireLists(lists.catalog).versions.map((v) => v.id);
      return [...publicIds, ...(await watchlists.of(trx)).consulted.map((w) => watchlistVersionId(w.id, w.version))];
    },
    find,
    summaries: screeningSummaries,
    /** The same summaries in a transaction of their own (the console's roll-call). */
    summariesOf: (context: AuditContext, ids: string[]) => withTenant(context.actor, (trx) => screeningSummaries(trx, ids)),
    /** The screening as the API shows it (GET /screenings/{id}). */
    presentScreening,

    screen: (context: AuditContext, input: ScreeningInput, source: ScreeningSource = 'prescreen'): Promise<ScreeningView> =>
      withTenant(context.actor, (trx) => screenIn(trx, context, input, source)),

    /** Every vendor screened and stored in one transaction: all of them, or none. */
    async screenVendors(context: AuditContext, vendors: VendorInput[]): Promise<VendorResult[]> {
      const now = new Date();
      return withTenant(context.actor, async (trx) => {
        const results: VendorResult[] = [];
        const views = await screenMany(
          trx,
          context,
          vendors.map((v) => v.input),
          'vendor',
          { now },
        );
        for (const [i, vendor] of vendors.entries()) {
          const stored = views[i] as ScreeningView;
          const vendorId = await upsertVendor(trx, context.actor.organizationId, newId('ven'), {
            ...(vendor.externalId && { externalId: vendor.externalId }),
            name: vendor.input.company as string,
            ...(vendor.input.country && { country: vendor.input.country }),
            identifiers: vendor.input.identifiers ?? [],
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

    /** The evidence PDF, audited in the same transaction once it rendered. */
    async evidencePdf(context: AuditContext, id: string): Promise<Buffer> {
      return withTenant(context.actor, async (trx) => {
        const view = (await find(trx, id)) ?? notFound(id);
        const auditHash = view.auditHash ?? (await recordingEventHash(trx, 'screening.created', { type: 'screening', id }, view.record.request_id));
        // The row and its event commit together, so a missing event is a damaged trail: no evidence without it.
        if (!auditHash) throw new Error(`screening ${id} has no audit event in its organization's chain`);
        const organization = { id: context.actor.organizationId, name: await organizationName(trx, context.actor.organizationId) };
        const adjudicationHistory = view.caseId ? await cases.caseHistory(trx, view.caseId) : undefined;
        const rendered = await renderEvidence(view, { organization, auditHash, ...(adjudicationHistory && { adjudication: adjudicationHistory }) });
        recordAudit(trx, context, { action: 'screening.evidence_downloaded', target: { type: 'screening', id } });
        return rendered;
      });
    },
  };
}

export type ScreeningService = ReturnType<typeof createScreeningService>;

export type EvidenceExtras = {
  organization: { id: string; name: string };
  /** The chain hash of the audit event that recorded the screening. */
  auditHash: string;
  adjudication?: EvidenceInput['adjudication'];
};

function notFound(id: string): never {
  throw new AppError('not_found', `There is no screening ${id} in your organization.`);
}

export type { ScreeningView };
