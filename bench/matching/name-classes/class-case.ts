/**
 * One row of set (f): a query, the listed entity it must find (none for a clean query), and the
 * names of that entity held out of the index, so that a query the list already carries word for
 * word does not pass for a found variant (matching.md §7, the alias hold-out).
 */
import type { SubjectQuery } from '../../../src/screening/match-types.ts';
import type { ListEntity, ListedName } from '../../../src/screening/model.ts';
import { unlistName } from '../perturb.ts';
import { stableHash } from '../split.ts';
import { tokensOf } from './words.ts';

export type ClassCase = {
  /** The split key: the entity (`LIST:entryId`), or the clean subject. */
  key: string;
  query: SubjectQuery;
  /** What the failure list shows: the query and what it was made from. */
  label: string;
  /** The listed entity the query must find; absent for a clean query, which must not alert. */
  entity?: ListEntity;
  /** Names of the entity taken out of the index for this row. */
  holdOut?: (name: ListedName) => boolean;
};

export type ClassVariant = { name: string; cases: ClassCase[] };

export const entityKey = (entity: ListEntity): string => `${entity.list}:${entity.entryId}`;

/**
 * Hold out the entity's names that are this query word for word, in any case or punctuation, as
 * listed or, for a person, in the order a visitor types them ("KIM, Jong Un" is "Jong Un Kim").
 * Word order counts otherwise: a legal form moved is the variant under test, not a name the list
 * carries (and "CIMEX, S.A." is not "S.A. CIMEX").
 */
export function sameNameAs(query: string, entity: ListEntity): (name: ListedName) => boolean {
  const key = tokensOf(query).join(' ');
  const orders = (full: string) => (entity.type === 'person' ? [full, unlistName(full)] : [full]);
  return (name) => orders(name.full).some((full) => tokensOf(full).join(' ') === key);
}

/** A positive row: the query must find `entity`; names equal to the query are held out. */
export function findCase(entity: ListEntity, query: SubjectQuery, made: string): ClassCase {
  return {
    key: entityKey(entity),
    query,
    entity,
    label: `${query.name}  (${made}; ${entity.list} ${entity.entryId})`,
    holdOut: sameNameAs(query.name, entity),
  };
}

/**
 * At most `cap` rows, the same ones run after run: ordered by a hash of their split key (salted, so
 * independent of the split's own hash), which keeps the dev/tune/test shares and picks the same entities in every variant of a family.
 */
export function capped<T extends { key: string }>(rows: readonly T[], cap: number): T[] {
  if (rows.length <= cap) return [...rows];
  const order = (row: T) => stableHash(`sample:${row.key}`);
  return [...rows].sort((a, b) => order(a) - order(b) || a.key.localeCompare(b.key)).slice(0, cap);
}
