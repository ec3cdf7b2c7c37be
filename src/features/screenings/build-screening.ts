/**
 * A screening's answer, built from a validated request and the loaded lists: the subject (and
 * its aliases) screened as a person, an organization or a vessel, with its identifiers, its
 * company screened as an organization in the same pass, the country flags, and every list version
 * consulted. No I/O: the service stores what this returns, exactly as returned.
 */
import { canonicalJson } from '../../canonical-json.ts';
import { newId } from '../../ids.ts';
import type { ListSnapshot } from '../../lists/catalog.ts';
import type { FreshnessReport } from '../../lists/freshness.ts';
import { stalenessAtScreening } from '../../lists/stale-at-screening.ts';
import { countryHolds, type HoldPolicy, NO_HOLDS } from '../../screening/country-sanctions/holds.ts';
import { countryFlags } from '../../screening/country-sanctions/lookup.ts';
import type { ScreeningMatch, SubjectQuery } from '../../screening/match-types.ts';
import { isoPartialDate, type ListEntity } from '../../screening/model.ts';
import { DEFAULT_THRESHOLD } from '../../screening/screening-index.ts';
import { sha256Hex } from '../../sha256.ts';
import type { ClearingRule } from '../cases/rules.ts';
import type { WatchlistScreen } from '../watchlists/organization-index.ts';
import { NO_WATCHLISTS } from '../watchlists/watchlist-indexes.ts';
import { sortMatches } from './auto-clearing.ts';
import { matchRecord } from './match-record.ts';
import type { MatchRecord, ScreeningInput, ScreeningRecord, ScreeningSource, Thresholds } from './screening-record.ts';
import { watchlistMatches, watchlistThreshold, watchlistVersionRecord } from './watchlist-matches.ts';

export const DEFAULT_THRESHOLDS: Thresholds = { match: DEFAULT_THRESHOLD, lists: {}, auto_clear_band: 0, rules_version: 0 };

/** The most matches kept per screened name: beyond that, more rows help no reviewer. */
const MATCHES_PER_NAME = 10;

export async function buildScreening(
  snapshot: ListSnapshot,
  input: ScreeningInput,
  context: {
    source: ScreeningSource;
    requestId: string;
    actor: { kind: string; id: string };
    now: Date;
    /** How current the lists were at `now`. */
    freshness: FreshnessReport;
    thresholds?: Thresholds;
    holds?: HoldPolicy;
    /** The organization's clearing rules (adjudication rules), in their order: the first that applies clears. */
    clearingRules?: readonly ClearingRule[];
    /** The organization's active watchlists, screened beside the lists (none when absent). */
    watchlists?: WatchlistScreen;
  },
): Promise<ScreeningRecord> {
  const thresholds = context.thresholds ?? DEFAULT_THRESHOLDS;
  const thresholdOf = (list: string) => thresholds.lists[list] ?? thresholds.match;
  const watchlists = context.watchlists ?? NO_WATCHLISTS;
  const thresholdOfWatchlist = watchlistThreshold(thresholdOf);
  // Each list's threshold is the engine's alert threshold (where a name is held against disagreeing
  // qualifiers); it reports down to the lowest score that could matter (some list's threshold less the band).
  const floor = Math.min(thresholds.match, ...Object.values(thresholds.lists)) - thresholds.auto_clear_band;
  const watchlistFloor = Math.min(...watchlists.consulted.map(thresholdOfWatchlist)) - thresholds.auto_clear_band;
  const countries = [...new Set([input.country, input.nationality].filter((c): c is string => Boolean(c)))];
  const common = { countries, ...(input.lists && { lists: input.lists }) };
  const identifiers = input.identifiers ? { identifiers: input.identifiers } : {};
  const searches: { query: SubjectQuery; field: (queryName: string) => MatchRecord['field'] }[] = [];
  if (input.subject) {
    const subject = input.subject;
    const dateOfBirth = input.date_of_birth ? isoPartialDate(input.date_of_birth) : undefined;
    searches.push({
      query: {
        ...common,
        ...identifiers,
        name: subject,
        kind: input.type,
        ...(input.aliases && { aliases: input.aliases }),
        ...(dateOfBirth && { dateOfBirth }),
      },
      field: (queryName) => (queryName === subject ? 'subject' : 'alias'),
    });
  }
  // The company a person works for is screened as an organization: a hit on it is its own match.
  if (input.company) {
    const own = input.subject ? {} : identifiers;
    searches.push({
      query: { ...common, ...own, name: input.company, kind: 'organization', countries: input.country ? [input.country] : [] },
      field: () => 'company',
    });
  }

  const versionOf = new Map(snapshot.versions.map((v) => [v.list, v.id]));
  const publicOptions = { threshold: { lists: thresholds.lists, otherwise: thresholds.match }, reportFloor: floor, limit: MATCHES_PER_NAME };
  const watchlistOptions = { threshold: thresholdOfWatchlist, reportFloor: watchlistFloor, limit: MATCHES_PER_NAME, now: context.now };
  const found = await Promise.all(searches.map(({ query }) => snapshot.index.screen(query, publicOptions)));
  const matches = searches
    .flatMap(({ query, field }, i) => [
      ...(found[i] as ScreeningMatch[]).map((m) =>
        matchRecord(m, field(m.queryName), {
          list: m.entity.list,
          entry_sha256: entrySha256(m.entity),
          programs: m.entity.programs,
          list_version: versionOf.get(m.entity.list) ?? 'unknown',
          threshold: thresholdOf(m.entity.list),
        }),
      ),
      ...watchlistMatches(watchlists, query, field, watchlistOptions),
    ])
    .sort((a, b) => b.score - a.score);
  const { alerting, autoCleared } = sortMatches(matches, thresholds, context.clearingRules ?? []);

  const consulted = snapshot.versions.filter((v) => !input.lists || input.lists.includes(v.list));
  const flags = countryFlags({ countries, ...(input.address && { text: input.address }) }, context.now);
  const holds = countryHolds(flags, input, context.holds ?? NO_HOLDS);
  const listVersions = consulted.map((v) => ({
    list: v.list,
    version_id: v.id,
    published_on: v.publishedOn,
    imported_at: v.importedAt.toISOString(),
    sha256: v.sourceSha256,
    entity_count: v.entityCount,
  }));
  listVersions.push(...watchlists.consulted.map(watchlistVersionRecord));
  return {
    id: newId('scr'),
    object: 'screening',
    source: context.source,
    outcome: alerting.length > 0 || holds.length > 0 ? 'potential_match' : 'clear',
    score: alerting[0]?.score ?? 0,
    input,
    matches: alerting,
    auto_cleared_matches: autoCleared,
    country_flags: flags,
    holds,
    list_versions: listVersions,
    ...stalenessAtScreening(context.freshness, listVersions),
    thresholds,
    reference: input.reference ?? null,
    created_at: context.now.toISOString(),
    request_id: context.requestId,
    actor: context.actor,
  };
}

/** The entry's hash as the list import computed it (src/lists/list-content.ts), once per entity. */
const entryHashes = new WeakMap<ListEntity, string>();
function entrySha256(entity: ListEntity): string {
  let hash = entryHashes.get(entity);
  if (hash === undefined) {
    hash = sha256Hex(canonicalJson(entity));
    entryHashes.set(entity, hash);
  }
  return hash;
}
