/**
 * A screening's answer, built from a validated request and the loaded lists: the subject (and
 * its aliases) screened as a person or an organization, its company screened as an organization
 * in the same pass, the country flags, and every list version consulted. No I/O: the service
 * stores what this returns, exactly as returned.
 */
import type { ListSnapshot } from '../../lists/catalog.ts';
import { newId } from '../../ids.ts';
import { type CountryFlag, countryFlags } from '../../screening/country-sanctions/lookup.ts';
import type { ScreeningMatch, SubjectQuery } from '../../screening/match-types.ts';
import type { PartialDate } from '../../screening/model.ts';
import { DEFAULT_THRESHOLD } from '../../screening/screening-index.ts';

export type ScreeningSource = 'prescreen' | 'vendor' | 'checkin' | 'workforce' | 'rescreen';

/** What was screened, as the caller gave it (trimmed, country codes upper-cased). */
export type ScreeningInput = {
  subject?: string;
  company?: string;
  country?: string;
  type: 'person' | 'organization';
  date_of_birth?: string;
  nationality?: string;
  address?: string;
  aliases?: string[];
  identifiers?: string[];
  reference?: string;
  lists?: string[];
  metadata?: Record<string, unknown>;
};

export type MatchRecord = {
  id: string;
  list: string;
  entry_id: string;
  entry_name: string;
  entry_type: string;
  matched_name: string;
  name_kind: string;
  field: 'subject' | 'company' | 'alias';
  score: number;
  explanation: {
    summary: string;
    query_name: string;
    list_name: string;
    name_kind: string;
    name_score: number;
    tokens: ScreeningMatch['explanation']['tokens'];
    qualifiers: ScreeningMatch['explanation']['qualifiers'];
  };
  programs: string[];
  list_version: string;
};

export type ListVersionRecord = { list: string; version_id: string; published_on: string | null; imported_at: string; sha256: string; entity_count: number };

export type ScreeningRecord = {
  id: string;
  object: 'screening';
  source: ScreeningSource;
  outcome: 'clear' | 'potential_match';
  score: number;
  input: ScreeningInput;
  matches: MatchRecord[];
  country_flags: CountryFlag[];
  list_versions: ListVersionRecord[];
  thresholds: { match: number };
  reference: string | null;
  created_at: string;
  request_id: string;
  actor: { kind: string; id: string };
};

/** The most matches kept per screened name: beyond that, more rows help no reviewer. */
const MATCHES_PER_NAME = 10;

const toDate = (value: string | undefined): PartialDate | undefined => {
  if (!value) return undefined;
  const [year, month, day] = value.split('-').map(Number);
  return { year: year as number, ...(month && { month }), ...(day && { day }) };
};

export function buildScreening(
  snapshot: ListSnapshot,
  input: ScreeningInput,
  context: { source: ScreeningSource; requestId: string; actor: { kind: string; id: string }; now: Date; threshold?: number },
): ScreeningRecord {
  const threshold = context.threshold ?? DEFAULT_THRESHOLD;
  const countries = [...new Set([input.country, input.nationality].filter((c): c is string => Boolean(c)))];
  const common = { countries, ...(input.lists && { lists: input.lists }), ...(input.identifiers && { identifiers: input.identifiers }) };
  const searches: { query: SubjectQuery; field: (queryName: string) => MatchRecord['field'] }[] = [];
  if (input.subject) {
    const subject = input.subject;
    const dateOfBirth = toDate(input.date_of_birth);
    searches.push({
      query: { ...common, name: subject, kind: input.type, ...(input.aliases && { aliases: input.aliases }), ...(dateOfBirth && { dateOfBirth }) },
      field: (queryName) => (queryName === subject ? 'subject' : 'alias'),
    });
  }
  // The company a person works for is screened as an organization: a hit on it is its own match.
  if (input.company) {
    searches.push({ query: { ...common, name: input.company, kind: 'organization', countries: input.country ? [input.country] : [] }, field: () => 'company' });
  }

  const versionOf = new Map(snapshot.versions.map((v) => [v.list, v.id]));
  const matches = searches
    .flatMap(({ query, field }) =>
      snapshot.index.screen(query, { threshold, limit: MATCHES_PER_NAME }).map((m): MatchRecord => ({
        id: newId('mat'),
        list: m.entity.list,
        entry_id: m.entity.entryId,
        entry_name: m.entity.names[0]?.full ?? m.matchedName.full,
        entry_type: m.entity.type,
        matched_name: m.matchedName.full,
        name_kind: m.matchedName.kind,
        field: field(m.queryName),
        score: m.score,
        explanation: {
          summary: m.explanation.summary,
          query_name: m.explanation.queryName,
          list_name: m.explanation.listName,
          name_kind: m.explanation.nameKind,
          name_score: m.explanation.nameScore,
          tokens: m.explanation.tokens,
          qualifiers: m.explanation.qualifiers,
        },
        programs: m.entity.programs,
        list_version: versionOf.get(m.entity.list) ?? 'unknown',
      })),
    )
    .sort((a, b) => b.score - a.score);

  const consulted = snapshot.versions.filter((v) => !input.lists || input.lists.includes(v.list));
  return {
    id: newId('scr'),
    object: 'screening',
    source: context.source,
    outcome: matches.length > 0 ? 'potential_match' : 'clear',
    score: matches[0]?.score ?? 0,
    input,
    matches,
    country_flags: countryFlags({ countries, ...(input.address && { text: input.address }) }, context.now),
    list_versions: consulted.map((v) => ({
      list: v.list,
      version_id: v.id,
      published_on: v.publishedOn,
      imported_at: v.importedAt.toISOString(),
      sha256: v.sourceSha256,
      entity_count: v.entityCount,
    })),
    thresholds: { match: threshold },
    reference: input.reference ?? null,
    created_at: context.now.toISOString(),
    request_id: context.requestId,
    actor: context.actor,
  };
}
