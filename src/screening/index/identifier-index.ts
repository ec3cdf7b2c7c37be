/**
 * List entries by their distinctive identifiers, so that an identifier finds an entry whatever
 * its name: one Map look-up per identifier the subject carries, never a scan. Keyed by the
 * identifier's class and normalized value (see identifier-types.ts): a passport number meets a
 * listed passport or national ID, a tax number a listed tax or registration number.
 *
 * A hit also has to fit the entry: a travel or identity document finds people, an IMO number ships
 * and the shipping companies listed under their IMO company number, never a person; and two
 * different issuing countries, where both sides name one, make two different numbers.
 */
import type { EntityType, Identifier, ListEntity } from '../model.ts';
import {
  CLASS_OF,
  COUNTRY_BOUND,
  comparableListed,
  type IdentifierClass,
  type IdentifierType,
  isDistinctive,
  MIN_CORROBORATING_LENGTH,
  normalizeIdentifier,
  type SubjectIdentifier,
} from '../identifier-types.ts';

/** What each class of identifier may find. */
const FINDS: Record<IdentifierClass, ReadonlySet<EntityType>> = {
  document: new Set(['person']),
  business: new Set(['organization', 'person']),
  lei: new Set(['organization']),
  imo: new Set(['vessel', 'organization']),
  mmsi: new Set(['vessel']),
};

/** One subject identifier found on one entry: what was given, its value as compared, and the entry's identifier it equals. */
export type IdentifierHit = { given: SubjectIdentifier; value: string; listed: Identifier; listedType: IdentifierType };

type Posting = { entity: number; identifier: number; type: IdentifierType };

/** What a subject without identifiers finds: shared, so that the usual screening allocates nothing for it. */
const NOTHING_FOUND: ReadonlyMap<number, IdentifierHit[]> = new Map();
const NO_ENTITIES: ReadonlySet<number> = new Set();

export class IdentifierIndex {
  private readonly postings = new Map<string, Posting[]>();
  private readonly names = new Map<number, number[]>();
  /** Entities by every comparable value they list, distinctive or not, whatever its type: those an identifier may corroborate. */
  private readonly byValue = new Map<string, number[]>();

  /**
   * `names`: every indexed list name with the entity it belongs to (NameIndex.names), so that an
   * entry found by identifier can have its names scored against the subject's.
   */
  constructor(
    private readonly entities: readonly ListEntity[],
    names: readonly { entity: number }[],
  ) {
    entities.forEach((entity, e) => {
      entity.identifiers.forEach((identifier, i) => {
        const comparable = comparableListed(identifier);
        if (comparable && comparable.value.length >= MIN_CORROBORATING_LENGTH) {
          const listing = this.byValue.get(comparable.value);
          if (!listing) this.byValue.set(comparable.value, [e]);
          else if (listing.at(-1) !== e) listing.push(e);
        }
        const identifierClass = comparable && CLASS_OF[comparable.type];
        if (!comparable || !identifierClass || !isDistinctive(comparable.type, comparable.value)) return;
        const key = `${identifierClass}:${comparable.value}`;
        const posting = { entity: e, identifier: i, type: comparable.type };
        const postings = this.postings.get(key);
        if (postings) postings.push(posting);
        else this.postings.set(key, [posting]);
        this.names.set(e, []);
      });
    });
    names.forEach((name, id) => this.names.get(name.entity)?.push(id));
  }

  /** The ids (in NameIndex.names) of an entity's names; empty for an entity no identifier can find. */
  namesOf(entity: number): readonly number[] {
    return this.names.get(entity) ?? [];
  }

  /**
   * The entities listing a value equal to one of the subject's identifiers: the only ones an
   * identifier can corroborate, so that the others are not qualified in words for nothing.
   */
  withEqualValue(identifiers: readonly SubjectIdentifier[] | undefined): ReadonlySet<number> {
    if (!identifiers || identifiers.length === 0) return NO_ENTITIES;
    const entities = new Set<number>();
    for (const given of identifiers) {
      const value = normalizeIdentifier(given.type, given.value);
      for (const entity of (value !== undefined && this.byValue.get(value)) || []) entities.add(entity);
    }
    return entities;
  }

  /**
   * The entries the subject's distinctive identifiers find, by entity, among those `accepts` lets
   * through (the subject's kind and lists). Identifiers that are not distinctive find nothing.
   */
  find(identifiers: readonly SubjectIdentifier[] | undefined, accepts: (entity: ListEntity) => boolean): ReadonlyMap<number, IdentifierHit[]> {
    if (!identifiers || identifiers.length === 0) return NOTHING_FOUND;
    const found = new Map<number, IdentifierHit[]>();
    for (const given of identifiers) {
      const identifierClass = CLASS_OF[given.type];
      const value = normalizeIdentifier(given.type, given.value);
      if (!identifierClass || value === undefined || !isDistinctive(given.type, value)) continue;
      for (const posting of this.postings.get(`${identifierClass}:${value}`) ?? []) {
        const entity = this.entities[posting.entity] as ListEntity;
        const listed = entity.identifiers[posting.identifier] as Identifier;
        if (!FINDS[identifierClass].has(entity.type) || !accepts(entity)) continue;
        if (COUNTRY_BOUND.has(identifierClass) && given.country && listed.country && given.country !== listed.country) continue;
        const hits = found.get(posting.entity);
        const hit = { given, value, listed, listedType: posting.type };
        if (hits) hits.push(hit);
        else found.set(posting.entity, [hit]);
      }
    }
    return found;
  }
}
