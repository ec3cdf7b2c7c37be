/**
 * The ownership check as a service: screen the names that need it (refusing with 503 when no
 * list is loaded, never evaluating against nothing), evaluate both rules, and record the check in
 * the audit trail (counts and verdicts, no names or ids of the caller's parties). A check asked to
 * be stored, or made under rules that store every check, is kept on record as a determination
 * (store-check.ts) in the same transaction as its audit event, which names its hash.
 */
import { type AuditContext, recordAudit } from '../../audit/audit.ts';
import type { WithTenant } from '../../db/tenant.ts';
import { type ListCatalog, requireLists } from '../../lists/catalog.ts';
import type { FreshnessReport } from '../../lists/freshness.ts';
import type { OwnershipVerdict } from '../../ownership/types.ts';
import { organizationName } from '../screenings/store.ts';
import { answerCheck, type ScreeningTerms } from './answer-check.ts';
import { type CheckFilters, listChecks, requireCheck, type StoredCheck } from './check-store.ts';
import { openCaseFor } from './determination-cases.ts';
import { renderDeterminationEvidence } from './evidence/determination-evidence.ts';
import type { NameScreening } from './name-screening.ts';
import type { OwnershipRequest } from './request.ts';
import { determinationRecord, keepDetermination, requireVendor } from './store-check.ts';

export type OwnershipServiceOptions = {
  screeningTerms: (context: AuditContext) => Promise<ScreeningTerms>;
  /** How current the lists are at a moment (the freshness monitor's report). */
  freshness: (now: Date) => FreshnessReport;
};

export function createOwnershipService(withTenant: WithTenant, lists: ListCatalog, options: OwnershipServiceOptions) {
  return {
    async check(context: AuditContext, request: OwnershipRequest, now: Date) {
      if (request.vendorId) await withTenant(context.actor, (trx) => requireVendor(trx, request.vendorId as string));
      const terms = await options.screeningTerms(context);
      // One snapshot for the whole check: every name is screened against the same list versions.
      const snapshot = request.screenNames ? requireLists(lists) : undefined;
      const { answer, verdict, screening } = await answerCheck(request, { snapshot, freshness: options.freshness(now), terms, now });
      const stored = request.store || terms.rules.rules.ownership.store === 'always' ? determinationRecord(context, request, answer) : undefined;
      const caseId = await withTenant(context.actor, async (trx) => {
        // The case first (written at commit), so the determination's row names it.
        const opened = stored ? openCaseFor(trx, context, stored.record, terms.rules, now) : null;
        if (stored) await keepDetermination(trx, context.actor.organizationId, stored, request.toScreen, opened);
        recordAudit(trx, context, {
          action: 'ownership.checked',
          target: { type: 'ownership_check', id: answer.id },
          details: {
            ...auditDetails(request, verdict, screening),
            stored: stored !== undefined,
            record_sha256: stored?.recordSha256 ?? null,
            case_id: opened,
          },
        });
        return opened;
      });
      const kept = { stored: stored !== undefined, record_sha256: stored?.recordSha256 ?? null, case_id: caseId };
      return { ...answer, ...kept, vendor_id: request.vendorId ?? null };
    },

    /** A stored determination; another organization's, or none, answers 404. */
    get(context: AuditContext, id: string): Promise<StoredCheck> {
      return withTenant(context.actor, (trx) => requireCheck(trx, id));
    },

    list(context: AuditContext, filters: CheckFilters, page: { limit: number; afterId?: string }) {
      return withTenant(context.actor, (trx) => listChecks(trx, filters, page));
    },

    /** The evidence PDF of a stored determination, audited in the same transaction once it rendered. */
    async evidencePdf(context: AuditContext, id: string): Promise<Buffer> {
      return withTenant(context.actor, async (trx) => {
        const found = await requireCheck(trx, id);
        const organization = { id: context.actor.organizationId, name: await organizationName(trx, context.actor.organizationId) };
        const pdf = await renderDeterminationEvidence(organization, found);
        recordAudit(trx, context, { action: 'ownership_check.evidence_downloaded', target: { type: 'ownership_check', id } });
        return pdf;
      });
    },

    /** A vendor's ownership status: its newest determination no re-evaluation superseded, if any (404 for a vendor not the caller's). */
    vendorOwnership(context: AuditContext, vendorId: string) {
      return withTenant(context.actor, async (trx) => {
        await requireVendor(trx, vendorId, { pointer: '/id', in: 'path' });
        const [current] = await listChecks(trx, { vendorId, current: true }, { limit: 1 });
        return current;
      });
    },
  };
}

export type OwnershipService = ReturnType<typeof createOwnershipService>;

/** What the audit trail keeps: sizes, verdicts and list versions; never the caller's names or ids. */
function auditDetails(request: OwnershipRequest, verdict: OwnershipVerdict, screening: NameScreening | undefined) {
  return {
    as_of: verdict.as_of,
    entities: request.query.entities.length,
    ownerships: request.query.ownerships.length,
    screen_names: request.screenNames,
    names_screened: screening?.summary.names_screened ?? 0,
    designated_by_screening: screening?.summary.entities_designated ?? 0,
    list_versions: screening?.summary.list_versions.map((v) => v.version_id) ?? [],
    stale_lists: screening?.summary.stale_lists.map((v) => v.list) ?? [],
    ofac: { blocked: verdict.ofac.blocked, determinate: verdict.ofac.determinate, basis: verdict.ofac.basis },
    bis: {
      restricted: verdict.bis.restricted,
      determinate: verdict.bis.determinate,
      basis: verdict.bis.basis,
      rule_status: verdict.bis.affiliates_rule_status,
      red_flag_29: verdict.bis.red_flag_29,
    },
    warnings: verdict.warnings.map((w) => w.code),
  };
}
