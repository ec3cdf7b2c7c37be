/**
 * Links yente's UN positives (names, dates of birth and nationalities, but no reference number)
 * to entries of the UN list: by name equality after normalisation (case, marks, punctuation and
 * spacing ignored) against every listed name, then by the same tokens in another order; when
 * more than one entry has that name, the date of birth, then the nationality, break the tie.
 * A row still ambiguous or not found is reported, never linked by guess.
 */
import type { ListEntity, PartialDate } from '../../../src/screening/model.ts';

export type PositiveRow = { name: string; nationality?: string | undefined; dateOfBirth?: PartialDate };
export type Unlinked = { name: string; reason: string };

export const normalizeForLinking = (name: string) =>
  name
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

const sortedTokens = (normalized: string) => normalized.split(' ').sort().join(' ');

function addTo(map: Map<string, Set<string>>, key: string, id: string) {
  const ids = map.get(key);
  if (ids) ids.add(id);
  else map.set(key, new Set([id]));
}

export function linkToUnEntries(rows: readonly PositiveRow[], un: readonly ListEntity[]): { links: (string | undefined)[]; unlinked: Unlinked[] } {
  const byName = new Map<string, Set<string>>();
  const byTokens = new Map<string, Set<string>>();
  const entities = new Map(un.map((e) => [e.entryId, e]));
  for (const entity of un) {
    if (entity.type !== 'person') continue;
    for (const name of entity.names) {
      const normalized = normalizeForLinking(name.full);
      addTo(byName, normalized, entity.entryId);
      addTo(byTokens, sortedTokens(normalized), entity.entryId);
    }
  }
  const unlinked: Unlinked[] = [];
  const links = rows.map((row) => {
    const normalized = normalizeForLinking(row.name);
    const candidates = [...(byName.get(normalized) ?? byTokens.get(sortedTokens(normalized)) ?? [])];
    if (candidates.length === 0) {
      unlinked.push({ name: row.name, reason: 'no UN entry has this name' });
      return undefined;
    }
    const chosen = breakTie(
      candidates.map((id) => entities.get(id) as ListEntity),
      row,
    );
    if (chosen.length !== 1) {
      unlinked.push({ name: row.name, reason: `${chosen.length} UN entries fit (${chosen.map((e) => e.entryId).join(', ')})` });
      return undefined;
    }
    return chosen[0]?.entryId;
  });
  return { links, unlinked };
}

function breakTie(candidates: ListEntity[], row: PositiveRow): ListEntity[] {
  if (candidates.length < 2) return candidates;
  const year = row.dateOfBirth?.year;
  const byDate =
    year === undefined
      ? candidates
      : candidates.filter((e) => e.datesOfBirth.some((d) => d.year === year || (d.until && d.year <= year && year <= d.until.year)));
  const narrowed = byDate.length > 0 ? byDate : candidates;
  if (narrowed.length < 2 || !row.nationality) return narrowed;
  const byCountry = narrowed.filter((e) => e.countries.includes(row.nationality as string));
  return byCountry.length > 0 ? byCountry : narrowed;
}
