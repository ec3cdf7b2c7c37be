/**
 * The screening pipeline, inside the caller's tenant transaction: match each input under the
 * organization's current rules, mark what earlier false-positive decisions cover, record it
 * (an audit event each, or the one event of the bulk operation that asked), store the records,
 * open (or reopen) a case for each potential match left standing or country hold, and announce each screening.
 * Every step is one statement (or a few, for thousands of rows) for the whole batch, not one per
 * screening, so a batch of a thousand vendors costs about what one prescreen does in round trips.
 */
import { type AuditContext, recordAudits } from '../../audit/audit.ts';
import { canonicalJson } from '../../canonical-json.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import { recordEvents } from '../../events/outbox.ts';
import { newId } from '../../ids.ts';
import type { ListSnapshot } from '../../lists/catalog.ts';
import type { FreshnessReport } from '../../lists/freshness.ts';
import { sha256Hex } from '../../sha256.ts';
import type { CaseService } from '../cases/service.ts';
import type { WatchlistScreen } from '../watchlists/organization-index.ts';
import { listSuppressedAsCleared } from './auto-clearing.ts';
import { buildScreening } from './build-screening.ts';
import type { ScreeningInput, ScreeningRecord, ScreeningSource } from './screening-record.ts';
import { recordScreenings, type StoredScreening } from './store.ts';

/** A stored screening with where its case stands now. */
export type ScreeningView = StoredScreening & { caseStatus: string | null };

export type ScreenOptions = {
  now?: Date;
  /**
   * Screen against these lists instead of every active one (a re-screen against changed entries),
   * and against the watchlists of `watchlists` only (none when absent).
   */
  snapshot?: ListSnapshot;
  /** The organization's watchlists screened beside the lists; by default those of the organization now, or none beside a `snapshot`. */
  watchlists?: WatchlistScreen;
  /**
   * A bulk operation (a workforce sync, a monitoring run) records its screenings under its own
   * audit event instead of one each, and announces itself instead of each screening.
   */
  recordedBy?: { auditHash: string };
  /** For input i, the subject's case to reopen rather than a new one to open (a re-screen of a decided subject). */
  reopen?: (index: number) => string | undefined;
  /** Store only what found something: a re-screen of thousands of subjects keeps no row for each clear one (its run counts them). */
  onlyPotentialMatches?: boolean;
};

/** What the pipeline asks of cases, in the batch's transaction: rules, suppressions, country holds, opening and reopening. */
export type PipelineCases = Pick<CaseService, 'currentRules' | 'countryHoldPolicy' | 'applySuppressions' | 'openCases' | 'reopenCase'>;

export async function screenMany(
  trx: TenantTransaction,
  context: AuditContext,
  cases: PipelineCases,
  snapshot: ListSnapshot,
  freshness: (now: Date) => FreshnessReport,
  inputs: ScreeningInput[],
  source: ScreeningSource,
  options: ScreenOptions = {},
): Promise<ScreeningView[]> {
  const now = options.now ?? new Date();
  const organizationId = context.actor.organizationId;
  const { version, rules } = await cases.currentRules(trx);
  const thresholds = { ...rules.thresholds, rules_version: version };
  const actor = { kind: context.actor.kind, id: context.actor.id };

  const holds = cases.countryHoldPolicy(rules, source);
  const clearingRules = rules.clearing_rules;
  // One report for the batch: every screening of it ran at `now`.
  const report = freshness(now);
  const built = await Promise.all(
    inputs.map((input) =>
      buildScreening(snapshot, input, {
        source,
        requestId: context.requestId ?? 'none',
        actor,
        now,
        freshness: report,
        thresholds,
        holds,
        clearingRules,
        ...(options.watchlists && { watchlists: options.watchlists }),
      }),
    ),
  );
  const records: ScreeningRecord[] = (await cases.applySuppressions(trx, built, rules, now)).map(listSuppressedAsCleared);
  const isKept = (record: ScreeningRecord) => !options.onlyPotentialMatches || record.outcome === 'potential_match';
  // A country hold opens a case as an unsuppressed match does: suppressions cover matches, never a country.
  const opensCase = (record: ScreeningRecord) => record.holds.length > 0 || record.matches.some((m) => m.suppressed_by === null);
  const caseIds = records.map((record, i) => (opensCase(record) ? (options.reopen?.(i) ?? newId('case', now.getTime())) : null));

  const recordedBy = options.recordedBy;
  const stored: StoredScreening[] = records.map((record, i) => ({
    record,
    recordSha256: sha256Hex(canonicalJson(record)),
    auditHash: recordedBy?.auditHash ?? null,
    caseId: caseIds[i] ?? null,
  }));
  // A bulk operation's one audit event, appended before, records all its screenings; otherwise one
  // event each, appended with the transaction's last statement, and one announcement each.
  if (!recordedBy) {
    recordAudits(
      trx,
      context,
      stored.map(({ record, caseId }) => ({
        action: 'screening.created',
        target: { type: 'screening', id: record.id },
        // Outcome and counts only: the names screened are personal data and stay in the screening row.
        details: {
          source,
          outcome: record.outcome,
          matches: record.matches.length,
          holds: record.holds.length,
          case_id: caseId,
          list_versions: record.list_versions.map((v) => v.version_id),
          stale_lists: (record.stale_lists ?? []).map((v) => v.list),
        },
      })),
    );
    recordEvents(
      trx,
      organizationId,
      stored
        .filter(({ record }) => isKept(record))
        .map(({ record, caseId }) => ({
          type: 'screening.completed' as const,
          data: {
            screening_id: record.id,
            source,
            outcome: record.outcome,
            score: record.score,
            matches: record.matches.length,
            holds: record.holds.length,
            case_id: caseId,
            reference: record.reference,
          },
          ...(context.requestId && { requestId: context.requestId }),
        })),
    );
  }
  recordScreenings(
    trx,
    organizationId,
    stored.filter((one) => isKept(one.record)),
  );

  // A decided case a re-screen reopens, one by one (its followers react to each); then the new
  // cases in one go. In that order: new cases are written at commit, and until then the
  // transaction may not read the cases table, as reopening does (see db/write-at-commit.ts).
  const caseStatuses = new Map<number, string>();
  for (const [i, { record, caseId }] of stored.entries()) {
    if (caseId && options.reopen?.(i))
      caseStatuses.set(i, await cases.reopenCase(trx, context, { caseId, screening: record, rulesVersion: version, rules, now }));
  }
  const toOpen = stored.flatMap(({ record, caseId }, i) => (caseId && !options.reopen?.(i) ? [{ i, caseId, screening: record }] : []));
  const opened = await cases.openCases(
    trx,
    context,
    toOpen.map(({ caseId, screening }) => ({ caseId, screening, rulesVersion: version, rules, now })),
  );
  toOpen.forEach(({ i }, n) => caseStatuses.set(i, opened[n] as string));
  const views: ScreeningView[] = stored.map((one, i) => ({ ...one, caseStatus: caseStatuses.get(i) ?? null }));
  return views;
}
