/**
 * The ownership graph in compact form: entities numbered 0…n-1 in input order, ownership stakes
 * in effect on `as_of` held twice in compressed adjacency arrays (by owner, to walk down; by owned,
 * to explain upwards), stakes in millionths of a percent (-1: unknown). Built once per
 * evaluation in linear time; every later pass is a loop over typed arrays.
 */
import { toMillionths } from './percent.ts';
import type { OwnershipQuery, SourcedDesignation } from './types.ts';

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

const inEffect = (link: { start_date?: string; end_date?: string }, asOf: string) =>
  (link.start_date === undefined || link.start_date <= asOf) && (link.end_date === undefined || asOf <= link.end_date);

/** Assumes a query that passed validateOwnershipQuery: ids unique and known, stakes valid. */
export function buildGraph(query: OwnershipQuery): OwnershipGraph {
  const size = query.entities.length;
  const indexOf = new Map<string, number>();
  const isPerson = new Uint8Array(size);
  const isUs = new Uint8Array(size);
  const hasCountry = new Uint8Array(size);
  const designations: (readonly SourcedDesignation[])[] = new Array(size);
  query.entities.forEach((entity, i) => {
    indexOf.set(entity.id, i);
    isPerson[i] = entity.type === 'person' ? 1 : 0;
    isUs[i] = entity.country?.toUpperCase() === 'US' ? 1 : 0;
    hasCountry[i] = entity.country ? 1 : 0;
    designations[i] = entity.designations ?? [];
  });

  const owners: number[] = [];
  const owneds: number[] = [];
  const stakes: number[] = [];
  const others: OtherLink[] = [];
  const outOfDate: { owner: number; owned: number }[] = [];
  for (const link of query.ownerships) {
    const owner = indexOf.get(link.owner) as number;
    const owned = indexOf.get(link.owned) as number;
    if (!inEffect(link, query.asOf)) outOfDate.push({ owner, owned });
    else if ((link.kind ?? 'ownership') !== 'ownership') others.push({ owner, owned, kind: link.kind as string });
    else {
      owners.push(owner);
      owneds.push(owned);
      stakes.push(link.percent === null ? UNKNOWN : millionths(link.percent));
    }
  }

  const knownIn = new Float64Array(size);
  for (let e = 0; e < owneds.length; e++) {
    const owned = owneds[e] as number;
    const stake = stakes[e] as number;
    if (stake !== UNKNOWN) knownIn[owned] = (knownIn[owned] as number) + stake;
  }
  return {
    size,
    ids: query.entities.map((e) => e.id),
    indexOf,
    designations,
    isPerson,
    isUs,
    hasCountry,
    down: adjacency(size, owners, owneds, stakes),
    up: adjacency(size, owneds, owners, stakes),
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
function adjacency(size: number, from: number[], to: number[], stakes: number[]): Adjacency {
  const start = new Int32Array(size + 1);
  for (const v of from) start[v + 1] = (start[v + 1] as number) + 1;
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
