/**
 * The ownership check as a service: screen the names that need it (refusing with 503 when no
 * list is loaded, never evaluating against nothing), evaluate both rules, and record the check in
 * the audit trail (counts and verdicts, no names or ids of the caller's parties). A check asked to
 * be stored, or made under rules that store every check, is kept on record as a determination
 * (store-check.ts) in the same transaction as its audit event, which names its hash.
 */
import { type AuditContext, recordAudit } from '../../audit/audit.ts';
import type { WithTenant } from '../../db/tenant.ts';
import { newId } from '../../ids.ts';
import { type ListCatalog, requireLists } from '../../lists/catalog.ts';
import type { FreshnessReport } from '../../lists/freshness.ts';
import { evaluateOwnership } from '../../ownership/evaluate.ts';
import type { OwnershipVerdict } from '../../ownership/types.ts';
import type { OwnershipRules } from '../cases/rules.ts';
import { organizationName } from '../screenings/store.ts';
import { type CheckFilters, insertCheck, listChecks, requireCheck, type StoredCheck } from './check-store.ts';
import { renderDeterminationEvidence } from './evidence/determination-evidence.ts';
import { type MatchView, type NameScreening, NOT_SCREENED, screenNames } from './name-screening.ts';
import type { OwnershipRequest } from './request.ts';
import { determinationRecord, requireVendor } from './store-check.ts';
import type { OwnershipWatchlists } from './watchlist-screening.ts';

/** What the caller's organization screens a check's names under and keeps of it, read together (one transaction). */
export type ScreeningTerms = {
  /** Whether checks are stored, and which determinations open cases (the adjudication rules' `ownership`). */
  ownership: OwnershipRules;
  /** The score a screened name must reach to count as a designation. */
  matchThreshold: number;
  /** Its watchlists, screened beside the lists (reported, never counted as designations). */
  watchlists?: OwnershipWatchlists;
};

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
      const screening = request.screenNames
        ? await screenNames(requireLists(lists), options.freshness(now), request.toScreen, terms.matchThreshold, terms.watchlists, now)
        : undefined;
      const query = screening ? withScreenedDesignations(request, screening) : request.query;
      const verdict = evaluateOwnership(query, { alsoReport: new Set(screening?.byEntity.keys()) }, request.resolved);
      const answer = {
        object: 'ownership_check' as const,
        id: newId('own'),
        ...verdict,
        checked_at: now.toISOString(),
        entities: screening ? withMatches(verdict, request, screening) : verdict.entities,
        warnings: [...verdict.warnings, ...uncountedMatches(request, screening), ...watchlistMatches(request, screening)],
        screening: screening?.summary ?? NOT_SCREENED,
      };
      const stored = request.store || terms.ownership.store === 'always' ? determinationRecord(context, request, answer) : undefined;
      await withTenant(context.actor, async (trx) => {
        if (stored) await insertCheck(trx, context.actor.organizationId, stored.record, stored.recordSha256, null);
        recordAudit(trx, context, {
          action: 'ownership.checked',
          target: { type: 'ownership_check', id: answer.id },
          details: { ...auditDetails(request, verdict, screening), stored: stored !== undefined, record_sha256: stored?.recordSha256 ?? null },
        });
      });
      return { ...answer, stored: stored !== undefined, record_sha256: stored?.recordSha256 ?? null, vendor_id: request.vendorId ?? null };
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

function withScreenedDesignations(request: OwnershipRequest, screening: NameScreening): OwnershipRequest['query'] {
  if (screening.byEntity.size === 0) return request.query;
  const entities = request.query.entities.map((entity, i) => {
    const found = screening.byEntity.get(i)?.designations ?? [];
    return found.length > 0 ? { ...entity, designations: [...(entity.designations ?? []), ...found] } : entity;
  });
  return { ...request.query, entities };
}

/** The matches behind each screened party, beside its verdict. */
function withMatches(verdict: OwnershipVerdict, request: OwnershipRequest, screening: NameScreening) {
  const position = request.resolved.indexOf;
  return verdict.entities.map((entity) => {
    const matches = screening.byEntity.get(position.get(entity.id) as number)?.matches;
    return matches ? { ...entity, screening_matches: matches } : entity;
  });
}

/** The parties (their ids) some of whose matches meet `which`. */
const partiesWith = (
  request: OwnershipRequest,
  screening: NameScreening | undefined,
  which: (found: { designations: unknown[]; matches: MatchView[] }) => boolean,
) => [...(screening?.byEntity ?? [])].filter(([, found]) => which(found)).map(([i]) => request.query.entities[i]?.id as string);

/** A party on the organization's own watchlists is no designation, and whoever checks should know of it. */
function watchlistMatches(request: OwnershipRequest, screening: NameScreening | undefined) {
  const listed = partiesWith(request, screening, (found) => found.matches.some((m) => 'watchlist' in m));
  if (listed.length === 0) return [];
  return [
    {
      code: 'watchlist_match' as const,
      detail: `${listed.length} part(ies) matched entries of your organization's watchlists: the ownership rules do not count them as designations. Review them in screening_matches.`,
      entities: listed.slice(0, 20),
      count: listed.length,
    },
  ];
}

/** Matches below the threshold change nothing, and a reviewer should still see them. */
function uncountedMatches(request: OwnershipRequest, screening: NameScreening | undefined) {
  const weak = partiesWith(request, screening, (found) => found.designations.length === 0 && found.matches.some((m) => !('watchlist' in m)));
  if (weak.length === 0) return [];
  return [
    {
      code: 'potential_match_not_counted' as const,
      detail: `Screening found list entries below the match threshold (${screening?.summary.threshold}) for ${weak.length} part(ies): not counted as designations. Review them in screening_matches.`,
      entities: weak.slice(0, 20),
      count: weak.length,
    },
  ];
}

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
