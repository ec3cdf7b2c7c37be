/**
 * List entries by their identifiers, so that a distinctive identifier finds an entry whatever its
 * name: one Map look-up per identifier the subject carries, never a scan. Keyed by the normalized
 * value (see identifier-types.ts); a hit needs a listed type of the same class: a passport number
 * meets a listed passport or national ID, a tax number a listed tax or registration number.
 *
 * A hit also has to fit the entry: a travel or identity document finds people, an IMO number ships
 * and the shipping companies listed under their IMO company number, never a person; and two
 * different issuing countries, where both sides name one, make two different numbers.
 */

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
import type { EntityType, Identifier, ListEntity } from '../model.ts';
import { finish, type Steps } from '../steps.ts';

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

/** What a subject without identifiers finds: shared, so that the usual screening allocates nothing for it. */
const NOTHING_FOUND: ReadonlyMap<number, IdentifierHit[]> = new Map();
const NO_ENTITIES: ReadonlySet<number> = new Set();

/**
 * A listed identifier as one small integer, entity · PER_ENTITY + its place on the entity, so that
 * the index holds numbers rather than an object each. Identifiers past the 1,024th of one entity
 * (none on the lists so far) are not indexed.
 */
const PER_ENTITY = 1024;
/** Entities (or names) between two pauses of a build in steps: well under a millisecond of work. */
const STEP = 256;
/** What the constructor is given by `inSteps`, which does the work itself. */
const IN_STEPS: unique symbol = Symbol('in steps');

export class IdentifierIndex {
  /** Every comparable value on the lists (distinctive or not, of any type) to the identifiers that hold it. */
  private readonly byValue = new Map<string, number | number[]>();
  /** The entities' names, grouped by entity: those of entity e are nameIds[nameStart[e]] … up to nameStart[e + 1]. */
  // Set by build(), which the constructor runs (or inSteps drives).
  private nameStart!: Uint32Array;
  private nameIds!: Uint32Array;

  /**
   * `names`: every indexed list name with the entity it belongs to (NameIndex.names), so that an
   * entry found by identifier can have its names scored against the subject's.
   */
  constructor(
    private readonly entities: readonly ListEntity[],
    names: readonly { entity: number }[],
    inSteps?: typeof IN_STEPS,
  ) {
    if (inSteps !== IN_STEPS) finish(this.build(names));
  }

  /** The same index, built in steps that pause every few hundred entities (see ../steps.ts). */
  static *inSteps(entities: readonly ListEntity[], names: readonly { entity: number }[]): Steps<IdentifierIndex> {
    const index = new IdentifierIndex(entities, names, IN_STEPS);
    yield* index.build(names);
    return index;
  }

  private *build(names: readonly { entity: number }[]): Steps<void> {
    const { entities } = this;
    for (let e = 0; e < entities.length; e++) {
      if (e % STEP === STEP - 1) yield;
      (entities[e] as ListEntity).identifiers.slice(0, PER_ENTITY).forEach((identifier, i) => {
        const value = comparableListed(identifier)?.value;
        if (value === undefined || value.length < MIN_CORROBORATING_LENGTH) return;
        const held = this.byValue.get(value);
        const posting = e * PER_ENTITY + i;
        if (held === undefined) this.byValue.set(value, posting);
        else if (typeof held === 'number') this.byValue.set(value, [held, posting]);
        else held.push(posting);
      });
    }
    yield;
    this.nameStart = new Uint32Array(entities.length + 1);
    for (const name of names) this.nameStart[name.entity + 1] = (this.nameStart[name.entity + 1] as number) + 1;
    for (let e = 0; e < entities.length; e++) this.nameStart[e + 1] = (this.nameStart[e + 1] as number) + (this.nameStart[e] as number);
    this.nameIds = new Uint32Array(names.length);
    const filled = this.nameStart.slice(0, entities.length);
    for (let id = 0; id < names.length; id++) {
      this.nameIds[(filled[(names[id] as { entity: number }).entity] as number)++] = id;
      if (id % STEP === STEP - 1) yield;
    }
  }

  /** The ids (in NameIndex.names) of an entity's names. */
  namesOf(entity: number): ArrayLike<number> {
    return this.nameIds.subarray(this.nameStart[entity], this.nameStart[entity + 1]);
  }

  private postingsOf(value: string): readonly number[] {
    const held = this.byValue.get(value);
    return held === undefined ? [] : typeof held === 'number' ? [held] : held;
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
      if (value !== undefined) for (const posting of this.postingsOf(value)) entities.add(Math.floor(posting / PER_ENTITY));
    }
    return entities;
  }

  /**
   * The entries the subject's distinctive identifiers find, by entity, among those `accepts` lets
   * through (the subject's kind and lists): the same value, listed under a type of the same class.
   * Identifiers that are not distinctive find nothing.
   */
  find(identifiers: readonly SubjectIdentifier[] | undefined, accepts: (entity: ListEntity) => boolean): ReadonlyMap<number, IdentifierHit[]> {
    if (!identifiers || identifiers.length === 0) return NOTHING_FOUND;
    const found = new Map<number, IdentifierHit[]>();
    for (const given of identifiers) {
      const identifierClass = CLASS_OF[given.type];
      const value = normalizeIdentifier(given.type, given.value);
      if (!identifierClass || value === undefined || !isDistinctive(given.type, value)) continue;
      for (const posting of this.postingsOf(value)) {
        const e = Math.floor(posting / PER_ENTITY);
        const entity = this.entities[e] as ListEntity;
        const listed = entity.identifiers[posting % PER_ENTITY] as Identifier;
        const listedType = comparableListed(listed)?.type ?? 'other';
        if (CLASS_OF[listedType] !== identifierClass || !FINDS[identifierClass].has(entity.type) || !accepts(entity)) continue;
        if (COUNTRY_BOUND.has(identifierClass) && given.country && listed.country && given.country !== listed.country) continue;
        const hits = found.get(e);
        const hit = { given, value, listed, listedType };
        if (hits) hits.push(hit);
        else found.set(e, [hit]);
      }
    }
    return found;
  }
}
