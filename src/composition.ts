/**
 * The composition root: every service that features share, built once, lowest first, each given
 * the ones built before it that it uses (the order is test/architecture/layers.ts's); and the
 * features that serve them. src/app.ts calls `buildAppServices` and hands the result to each
 * feature's `register`. Services no other feature uses (API keys, the audit export, inbound
 * webhooks…) are built by their own feature from the platform's parts.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { TenantTransaction } from './db/tenant.ts';
import { createTransactionHook } from './events/transaction-hook.ts';
import adjudicationFeature from './features/adjudication/index.ts';
import { createAdjudicationService } from './features/adjudication/service.ts';
import apiKeys from './features/api-keys/index.ts';
import auditExport from './features/audit-export/index.ts';
import caller from './features/caller/index.ts';
import { createCaseService } from './features/cases/service.ts';
import type { CaseStatusChange } from './features/cases/status-hook.ts';
import consoleFeature from './features/console/index.ts';
import events from './features/events/index.ts';
import health from './features/health/index.ts';
import inboundWebhooks from './features/inbound-webhooks/index.ts';
import listsFeature from './features/lists/index.ts';
import monitoringFeature from './features/monitoring/index.ts';
import { createMonitoringService } from './features/monitoring/service.ts';
import { caseDeterminations } from './features/ownership/determination-cases.ts';
import { createDeterminationFollower } from './features/ownership/determination-follower.ts';
import ownershipFeature from './features/ownership/index.ts';
import { createOwnershipService } from './features/ownership/service.ts';
import { pdfEvidence } from './features/screenings/evidence-input.ts';
import screeningsFeature from './features/screenings/index.ts';
import { createScreeningService } from './features/screenings/service.ts';
import { vendorMonitoring } from './features/screenings/vendor-monitoring.ts';
import signOut from './features/sign-out/index.ts';
import visitorSessionsFeature from './features/visitor-sessions/index.ts';
import { createSessionService } from './features/visitor-sessions/service.ts';
import type { WatchlistChange } from './features/watchlists/change-hook.ts';
import watchlistsFeature from './features/watchlists/index.ts';
import { createWatchlistService } from './features/watchlists/service.ts';
import { createWatchlistIndexes, DEFAULT_WATCHLIST_INDEX_OPTIONS } from './features/watchlists/watchlist-indexes.ts';
import webhooksFeature from './features/webhooks/index.ts';
import { createWebhooks, type WebhookSeams } from './features/webhooks/service-and-worker.ts';
import workforceFeature from './features/workforce/index.ts';
import { workforceMonitoring } from './features/workforce/monitoring-source.ts';
import type { Feature } from './http/feature.ts';
import type { ListCatalog } from './lists/catalog.ts';
import type { ListFreshnessMonitor } from './lists/freshness.ts';

export type PlatformParts = { config: Config; db: Database; lists: ListCatalog; listFreshness: ListFreshnessMonitor; log: FastifyBaseLogger };

/** What a test may replace in the services it gets: the DNS and clock of webhooks. */
export type ServiceSeams = { webhooks?: WebhookSeams };

export async function buildAppServices({ config, db, lists, listFreshness, log }: PlatformParts, seams: ServiceSeams = {}) {
  const { withTenant } = db;
  // Run inside the transaction that changes a case's status; what follows cases subscribes below.
  const caseStatusChanged = createTransactionHook<CaseStatusChange>();

  // Run by the watchlist service inside the transaction that writes a version; monitoring subscribes below.
  const watchlistChanged = createTransactionHook<WatchlistChange>();

  const cases = createCaseService({ statusChanged: caseStatusChanged });
  const watchlists = createWatchlistService({ withTenant, changed: watchlistChanged });
  // Each organization's watchlists indexed on first use, weighing words as the public lists do.
  const watchlistIndexes = createWatchlistIndexes({
    ...DEFAULT_WATCHLIST_INDEX_OPTIONS,
    rarity: () => lists.current()?.index.rarity(),
    onError: (error) => log.error({ err: error }, 'a watchlist index rebuild failed; the current one keeps answering'),
  });
  const screenings = createScreeningService(
    withTenant,
    { catalog: lists, freshness: listFreshness },
    { cases, watchlists: watchlistIndexes },
    pdfEvidence(config.evidenceFallbackFont),
  );
  const loadedLists = () => lists.current()?.versions.map((v) => v.list) ?? [];
  const adjudication = createAdjudicationService(
    withTenant,
    // A case about an ownership determination is shown with it (ownership answers; adjudication cannot import it).
    { screenings, determinations: caseDeterminations, statusChanged: caseStatusChanged },
    loadedLists,
  );
  const visitorSessions = createSessionService(withTenant, lists, { screenings, cases }, { prescreenFreshnessHours: config.checkinPrescreenFreshnessHours });
  // A visitor session follows its case: a disposition or a reopening moves it before committing.
  caseStatusChanged.on(visitorSessions.followCase);
  const ownershipTerms = ownershipTermsFrom({ cases, watchlistIndexes });
  const freshness = (now: Date) => listFreshness.report(now);
  const ownership = createOwnershipService(withTenant, lists, { screeningTerms: (context) => withTenant(context.actor, ownershipTerms), freshness });
  // A list version's monitoring run re-evaluates, after its subjects, the stored determinations it touches (ownership's follower: monitoring cannot import it).
  const determinations = createDeterminationFollower({
    lists,
    listStore: db.lists,
    screeningTerms: ownershipTerms,
    freshness,
    caseStatusChanged,
  });
  const monitoring = createMonitoringService(
    db,
    lists,
    { screenings, sources: monitoringSources(visitorSessions), determinations },
    { batchSize: 500, leaseSeconds: 120 },
  );
  // A watchlist version that added or changed entries re-screens the organization's subjects against those entries.
  watchlistChanged.on(monitoring.queueWatchlistRun);
  const webhooks = await createWebhooks(config, db, log, seams.webhooks);

  return {
    cases,
    watchlists,
    screenings,
    adjudication,
    visitorSessions,
    monitoring,
    ownership,
    webhooks: webhooks.service,
    webhookWorker: webhooks.worker,
    watchlistIndexes,
  };
}

export type AppServices = Awaited<ReturnType<typeof buildAppServices>>;

/**
 * An organization's terms for ownership, read in its transaction: a screened name counts as a
 * designation at its own match threshold, and checks are kept as its rules say (its adjudication rules).
 */
export const ownershipTermsFrom =
  ({ cases, watchlistIndexes }: { cases: Pick<AppServices['cases'], 'currentRules'>; watchlistIndexes: Pick<AppServices['watchlistIndexes'], 'of'> }) =>
  async (trx: TenantTransaction) => {
    const rules = await cases.currentRules(trx);
    const { thresholds } = rules.rules;
    return { rules, matchThreshold: thresholds.match, watchlists: { screen: await watchlistIndexes.of(trx), thresholds } };
  };

/**
 * The subjects continuous monitoring watches, in the order a run goes through them (a run's
 * cursor names the source it is in): vendors, visitors not yet gone, the active workforce.
 */
export const monitoringSources = (visitorSessions: Pick<AppServices['visitorSessions'], 'monitoringSource'>) => [
  vendorMonitoring,
  visitorSessions.monitoringSource,
  workforceMonitoring,
];

/** Every feature the application serves, registered in this order, each given the services it names. */
export const APP_FEATURES: Feature<AppServices>[] = [
  adjudicationFeature,
  apiKeys,
  auditExport,
  caller,
  consoleFeature,
  events,
  health,
  inboundWebhooks,
  listsFeature,
  monitoringFeature,
  ownershipFeature,
  screeningsFeature,
  signOut,
  visitorSessionsFeature,
  watchlistsFeature,
  webhooksFeature,
  workforceFeature,
];
