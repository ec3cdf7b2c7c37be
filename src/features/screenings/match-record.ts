/**
 * An engine match as a screening records it: one shape for a public list's entry and a watchlist's,
 * each side giving what it knows of its entry (its list code, version, content hash, programs, the
 * threshold it was held to, and for a watchlist, the watchlist). Pure.
 */
import { newId } from '../../ids.ts';
import type { ScreeningMatch } from '../../screening/match-types.ts';
import type { MatchRecord } from './screening-record.ts';

export type EntryFacts = Pick<MatchRecord, 'list' | 'entry_sha256' | 'programs' | 'list_version' | 'threshold' | 'watchlist'>;

export function matchRecord(m: ScreeningMatch, field: MatchRecord['field'], facts: EntryFacts): MatchRecord {
  const { watchlist, ...entry } = facts;
  return {
    id: newId('mat'),
    list: entry.list,
    entry_id: m.entity.entryId,
    entry_name: m.entity.names[0]?.full ?? m.matchedName.full,
    entry_type: m.entity.type,
    entry_sha256: entry.entry_sha256,
    matched_name: m.matchedName.full,
    name_kind: m.matchedName.kind,
    field,
    score: m.score,
    explanation: {
      summary: m.explanation.summary,
      ...(m.explanation.foundByIdentifier && { found_by_identifier: m.explanation.foundByIdentifier }),
      query_name: m.explanation.queryName,
      list_name: m.explanation.listName,
      name_kind: m.explanation.nameKind,
      name_score: m.explanation.nameScore,
      tokens: m.explanation.tokens,
      qualifiers: m.explanation.qualifiers,
    },
    programs: entry.programs,
    list_version: entry.list_version,
    threshold: entry.threshold,
    suppressed_by: null,
    ...(watchlist && { watchlist }),
  };
}
