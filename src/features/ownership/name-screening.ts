/**
 * Parties without designations screened by name against the loaded US lists the two rules read
 * (OFAC SDN and non-SDN, BIS Entity, MEU, Unverified and Denied Persons lists). A match at or
 * above the match threshold becomes a designation, marked as found by screening; a weaker match
 * down to the engine's default threshold is reported for review and not counted. Each distinct
 * (name, type, country) is screened once, and the event loop is given back every few names so
 * that a long screening does not stall other requests.
 */
import { AppError } from '../../http/errors.ts';
import type { ListSnapshot } from '../../lists/catalog.ts';
import type { FreshnessReport } from '../../lists/freshness.ts';
import { presentVersion } from '../../lists/list-view.ts';
import { type ListStaleness, stalenessAtScreening } from '../../lists/stale-at-screening.ts';
import type { DesignationList } from '../../ownership/list-scope.ts';
import type { SourcedDesignation } from '../../ownership/types.ts';
import type { ScreeningMatch } from '../../screening/match-types.ts';
import type { ListEntity } from '../../screening/model.ts';
import { DEFAULT_THRESHOLD } from '../../screening/screening-index.ts';
import type { NameToScreen } from './request.ts';
import { type OwnershipWatchlists, type WatchlistMatchView, watchlistMatchViews, watchlistVersionViews } from './watchlist-screening.ts';

/** The screening summary of a check that screened no names. */
export const NOT_SCREENED = {
  performed: false,
  threshold: null,
  entities_screened: 0,
  names_screened: 0,
  entities_matched: 0,
  entities_designated: 0,
  list_versions: [],
  lists_stale: false,
  stale_lists: [],
};

type KeptVersion = NameScreening['summary']['list_versions'][number];
/**
 * What the answer, and so the stored record and its hash, keeps of a version: the fields its schema
 * shows, no more. A field the schema strips would be hashed yet never shown, and a client could
 * not check the record's hash from what GET /ownership/checks/{id} answers.
 */
const keptOfVersion = ({ list, version_id, published_on, imported_at, source_sha256 }: KeptVersion): KeptVersion => ({
  list,
  version_id,
  published_on,
  imported_at,
  source_sha256,
});

/** The loaded lists screened, and the designation each one's entries give. */
export const SCREENED_LISTS: readonly string[] = ['OFAC_SDN', 'OFAC_CONS', 'BIS_EL', 'BIS_MEU', 'BIS_UVL', 'BIS_DPL'];
const MATCHES_PER_NAME = 5;
const NAMES_PER_TURN = 100;

export type MatchView =
  | {
      list: string;
      entry_id: string;
      entry_name: string;
      matched_name: string;
      score: number;
      counted: boolean;
      programs: string[];
      list_version: string;
      explanation: string;
    }
  | WatchlistMatchView;

export type NameScreening = {
  /** Per position in `entities`: the designations screening found and the matches behind them. */
  byEntity: Map<number, { designations: SourcedDesignation[]; matches: MatchView[] }>;
  summary: {
    performed: true;
    threshold: number;
    entities_screened: number;
    names_screened: number;
    entities_matched: number;
    entities_designated: number;
    list_versions: Pick<ReturnType<typeof presentVersion>, 'list' | 'version_id' | 'published_on' | 'imported_at' | 'source_sha256'>[];
  } & ListStaleness;
};

/**
 * OFAC's non-SDN entries are one list for Gatehouse (OFAC_CONS); its sectoral sanctions
 * identifications (the SSI sub-list, program UKRAINE-EO13662) are told apart by their program.
 */
function designationList(entity: ListEntity): DesignationList {
  if (entity.list !== 'OFAC_CONS') return entity.list as DesignationList;
  return entity.programs.some((p) => p === 'SSI' || p === 'UKRAINE-EO13662') ? 'OFAC_SSI' : 'OFAC_CONS';
}

/** `freshness`: how current the lists were when the screening began; `watchlists`: the organization's, screened beside the lists. */
export async function screenNames(
  snapshot: ListSnapshot,
  freshness: FreshnessReport,
  names: NameToScreen[],
  threshold: number,
  watchlists?: OwnershipWatchlists,
  now = new Date(),
): Promise<NameScreening> {
  const versions = snapshot.versions.filter((v) => SCREENED_LISTS.includes(v.list));
  if (versions.length === 0) {
    throw new AppError(
      'lists_unavailable',
      `None of the lists the ownership rules read (${SCREENED_LISTS.join(', ')}) is loaded, so names cannot be screened. ` +
        'Load them with `gatehouse lists update`, or send the designations you know with screen_names set to false.',
    );
  }
  const lists = versions.map((v) => v.list);
  const versionOf = new Map(versions.map((v) => [v.list, v.id]));
  // Weaker matches are shown for review down to the engine's own threshold; only those reaching `threshold` count.
  const floor = Math.min(threshold, DEFAULT_THRESHOLD);
  const cache = new Map<string, { matches: ScreeningMatch[]; onWatchlists: WatchlistMatchView[] }>();
  const byEntity: NameScreening['byEntity'] = new Map();
  let designated = 0;
  for (const [i, { index, name, kind, country }] of names.entries()) {
    if (i > 0 && i % NAMES_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    const key = `${kind}\u0000${country ?? ''}\u0000${name}`;
    const countries = country ? [country] : [];
    const found = cache.get(key) ?? {
      matches: await snapshot.index.screen({ name, kind, countries, lists }, { threshold: floor, limit: MATCHES_PER_NAME }),
      onWatchlists: watchlists ? watchlistMatchViews(watchlists, { name, kind, countries }, MATCHES_PER_NAME, now) : [],
    };
    cache.set(key, found);
    const { matches, onWatchlists } = found;
    if (matches.length === 0 && onWatchlists.length === 0) continue;
    const listViews = matches.map(
      (m): MatchView => ({
        list: m.entity.list,
        entry_id: m.entity.entryId,
        entry_name: m.entity.names[0]?.full ?? m.matchedName.full,
        matched_name: m.matchedName.full,
        score: m.score,
        counted: m.score >= threshold,
        programs: m.entity.programs,
        list_version: versionOf.get(m.entity.list) ?? 'unknown',
        explanation: m.explanation.summary,
      }),
    );
    const designations = matches
      .filter((m) => m.score >= threshold)
      .map((m): SourcedDesignation => ({ list: designationList(m.entity), programs: m.entity.programs, source: 'screening', entry_id: m.entity.entryId }));
    if (designations.length > 0) designated++;
    byEntity.set(index, { designations, matches: [...listViews, ...onWatchlists] });
  }
  const listVersions = [...versions.map((v) => presentVersion(v)), ...watchlistVersionViews(watchlists)].map(keptOfVersion);
  return {
    byEntity,
    summary: {
      performed: true,
      threshold,
      entities_screened: names.length,
      names_screened: cache.size,
      entities_matched: byEntity.size,
      entities_designated: designated,
      list_versions: listVersions,
      ...stalenessAtScreening(freshness, listVersions),
    },
  };
}
