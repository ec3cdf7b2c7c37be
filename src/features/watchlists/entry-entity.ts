/**
 * A watchlist entry as the screening engine reads a list entry: its names, type, countries, dates
 * of birth and identifiers. Pure. The entity is filed under its watchlist's id, not its slug
 * (ORG:<slug>, what a match is labelled): a slug may be renamed, and an id never changes, so a
 * rename touches no index.
 */
import { emptyEntity, isoPartialDate, type ListEntity, type PartialDate } from '../../screening/model.ts';
import type { WatchlistEntry } from './model.ts';

export function entryEntity(entry: WatchlistEntry): ListEntity {
  return emptyEntity({
    list: entry.watchlistId,
    entryId: entry.id,
    type: entry.type,
    names: entry.names.map((name) => ({ full: name.full, kind: name.kind })),
    countries: [...entry.countries],
    datesOfBirth: entry.datesOfBirth.map(isoPartialDate).filter((date): date is PartialDate => date !== undefined),
    identifiers: entry.identifiers.map((identifier) => ({
      type: identifier.type,
      value: identifier.value,
      ...(identifier.country && { country: identifier.country }),
    })),
  });
}
