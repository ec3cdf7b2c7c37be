/**
 * The ownership graph in compact form: entities numbered 0…n-1 in input order, ownership stakes
 * in effect on `as_of` held twice in compressed adjacency arrays (by owner, to walk down; by owned,
 * to explain upwards), stakes in millionths of a percent (-1: unknown). Built once per
 * evaluation in linear time; every later pass is a loop over typed arrays.
 */
import { toMillionths } from './percent.ts';
import type { GraphEntity, OwnershipQuery, SourcedDesignation } from './types.ts';

export const UNKNOWN = -1;

export type Adjacency = {
  /** Edges of entity v are positions start[v] … start[v + 1] - 1. */
  start: Int32Array;
  /** The entity at the other end of each edge. */
  other: Int32Array;
  /** The stake in millionths, or UNKNOWN. */
  stake: Float64Array;
};

/** A relationship that is not ownership (control, director, …): never counted, reported. */
export type OtherLink = { owner: number; owned: number; kind: string };

export type OwnershipGraph = {
  size: number;
  ids: readonly string[];
  indexOf: ReadonlyMap<string, number>;
  designations: readonly (readonly SourcedDesignation[])[];
  isPerson: Uint8Array;
  isUs: Uint8Array;
  hasCountry: Uint8Array;
  /** Stakes by owner: who each entity owns. */
  down: Adjacency;
  /** Stakes by owned: who owns each entity. */
  up: Adjacency;
  /** Sum of the known stakes in each entity, whoever holds them. */
  knownIn: Float64Array;
  others: OtherLink[];
  /** Links left out because their dates do not include `as_of`. */
  outOfDate: { owner: number; owned: number }[];
};

/** Whether a link's dates include `asOf` (both inclusive; a missing date does not limit it). */
export const inEffect = (link: { start_date?: string; end_date?: string }, asOf: string) =>
  (link.start_date === undefined || link.start_date <= asOf) && (link.end_date === undefined || asOf <= link.end_date);

/** Entity ids numbered in input order, and each link's owner and owned as numbers (-1: no such entity). */
export type ResolvedIds = {
  indexOf: ReadonlyMap<string, number>;
  owner: Int32Array;
  owned: Int32Array;
  /** [index, index of the first entity with the same id]. */
  repeats: [number, number][];
};

export function resolveIds(query: OwnershipQuery): ResolvedIds {
  const indexOf = new Map<string, number>();
  const repeats: [number, number][] = [];
  for (let i = 0; i < query.entities.length; i++) {
    const id = (query.entities[i] as GraphEntity).id;
    const first = indexOf.get(id);
    if (first === undefined) indexOf.set(id, i);
    else repeats.push([i, first]);
  }
  const count = query.ownerships.length;
  const owner = new Int32Array(count);
  const owned = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const link = query.ownerships[i] as OwnershipQuery['ownerships'][number];
    owner[i] = indexOf.get(link.owner) ?? -1;
    owned[i] = indexOf.get(link.owned) ?? -1;
  }
  return { indexOf, owner, owned, repeats };
}

/**
 * Assumes a query that passed validateOwnershipQuery: ids unique and known, stakes valid.
 * `resolved` is what the validation resolved, so ids are looked up once.
 */
export function buildGraph(query: OwnershipQuery, resolved: ResolvedIds = resolveIds(query)): OwnershipGraph {
  const size = query.entities.length;
  const isPerson = new Uint8Array(size);
  const isUs = new Uint8Array(size);
  const hasCountry = new Uint8Array(size);
  const designations: (readonly SourcedDesignation[])[] = new Array(size);
  for (let i = 0; i < size; i++) {
    const entity = query.entities[i] as GraphEntity;
    isPerson[i] = entity.type === 'person' ? 1 : 0;
    isUs[i] = entity.country?.toUpperCase() === 'US' ? 1 : 0;
    hasCountry[i] = entity.country ? 1 : 0;
    designations[i] = entity.designations ?? [];
  }

  const count = query.ownerships.length;
  const owners = new Int32Array(count);
  const owneds = new Int32Array(count);
  const stakes = new Float64Array(count);
  const others: OtherLink[] = [];
  const outOfDate: { owner: number; owned: number }[] = [];
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const link = query.ownerships[i] as OwnershipQuery['ownerships'][number];
    const owner = resolved.owner[i] as number;
    const owned = resolved.owned[i] as number;
    if (!inEffect(link, query.asOf)) outOfDate.push({ owner, owned });
    else if (link.kind !== undefined && link.kind !== 'ownership') others.push({ owner, owned, kind: link.kind });
    else {
      owners[kept] = owner;
      owneds[kept] = owned;
      stakes[kept++] = link.percent === null ? UNKNOWN : millionths(link.percent);
    }
  }

  const knownIn = new Float64Array(size);
  for (let e = 0; e < kept; e++) {
    const stake = stakes[e] as number;
    const owned = owneds[e] as number;
    if (stake !== UNKNOWN) knownIn[owned] = (knownIn[owned] as number) + stake;
  }
  return {
    size,
    ids: query.entities.map((e) => e.id),
    indexOf: resolved.indexOf,
    designations,
    isPerson,
    isUs,
    hasCountry,
    down: adjacency(size, owners.subarray(0, kept), owneds.subarray(0, kept), stakes.subarray(0, kept)),
    up: adjacency(size, owneds.subarray(0, kept), owners.subarray(0, kept), stakes.subarray(0, kept)),
    knownIn,
    others,
    outOfDate,
  };
}

function millionths(percent: number): number {
  const value = toMillionths(percent);
  if (typeof value !== 'number') throw new Error(`A stake that ${value.problem} reached the evaluation: validate the query first`);
  return value;
}

/** Counting sort of the edges by `from`: linear, and stable, so input order is kept per entity. */
function adjacency(size: number, from: Int32Array, to: Int32Array, stakes: Float64Array): Adjacency {
  const start = new Int32Array(size + 1);
  for (let e = 0; e < from.length; e++) start[(from[e] as number) + 1] = (start[(from[e] as number) + 1] as number) + 1;
  for (let v = 0; v < size; v++) start[v + 1] = (start[v + 1] as number) + (start[v] as number);
  const fill = start.slice(0, size);
  const other = new Int32Array(from.length);
  const stake = new Float64Array(from.length);
  for (let e = 0; e < from.length; e++) {
    const slot = from[e] as number;
    const at = fill[slot] as number;
    fill[slot] = at + 1;
    other[at] = to[e] as number;
    stake[at] = stakes[e] as number;
  }
  return { start, other, stake };
}
