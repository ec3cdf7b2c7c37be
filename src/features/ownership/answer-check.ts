/**
 * An ownership check answered: the names that need it screened against one snapshot of the lists
 * (never two: every name of a check is screened against the same versions), both rules evaluated
 * on the designations given and found, and the answer assembled with the matches and the warnings
 * a reviewer needs. The service answers a caller's check with it, and a re-evaluation after a
 * list change a stored one (reevaluate-check.ts): one decision, never a second copy of it.
 */

import { newId } from '../../ids.ts';
import type { ListSnapshot } from '../../lists/catalog.ts';
import type { FreshnessReport } from '../../lists/freshness.ts';
import { evaluateOwnership } from '../../ownership/evaluate.ts';
import type { OwnershipVerdict } from '../../ownership/types.ts';
import type { VersionedRules } from '../cases/rules.ts';
import { type MatchView, type NameScreening, NOT_SCREENED, screenNames } from './name-screening.ts';
import type { OwnershipRequest } from './request.ts';
import type { OwnershipWatchlists } from './watchlist-screening.ts';

/** What the caller's organization screens a check's names under and keeps of it, read together (one transaction). */
export type ScreeningTerms = {
  /** The adjudication rules in force: whether checks are stored and which determinations open cases (`ownership`), and the version a case records. */
  rules: VersionedRules;
  /** The score a screened name must reach to count as a designation (the rules' `thresholds.match`). */
  matchThreshold: number;
  /** Its watchlists, screened beside the lists (reported, never counted as designations). */
  watchlists?: OwnershipWatchlists;
};

/** What a check is answered against: the lists as one snapshot (required when it screens names), how current they are, and the organization's terms. */
export type AnswerBasis = { snapshot: ListSnapshot | undefined; freshness: FreshnessReport; terms: ScreeningTerms; now: Date };

export async function answerCheck(request: OwnershipRequest, { snapshot, freshness, terms, now }: AnswerBasis) {
  const screening =
    request.screenNames && snapshot ? await screenNames(snapshot, freshness, request.toScreen, terms.matchThreshold, terms.watchlists, now) : undefined;
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
  return { answer, verdict, screening };
}

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
