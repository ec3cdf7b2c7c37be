/**
 * The covered set of one rule: the least fixed point of "an entity is covered when the stakes
 * held in it by covered parties add up to 50 % or more", grown from the listed parties
 * (ownership-rules.md §5.3). Growing from the seeds, never shrinking from everything, is what
 * keeps a cycle from justifying itself: two unlisted companies holding 50 % of each other stay
 * uncovered until a covered owner outside the cycle tips one of them.
 *
 * Each party enters the queue once and each of its stakes is added once: O(entities + stakes),
 * and it ends on any graph, cycles included. Percentages are never multiplied along a chain: a
 * covered entity counts with its whole stake, an uncovered one with none (OFAC FAQ 401).
 */
import { type OwnershipGraph, UNKNOWN } from './graph.ts';
import type { SeedLevel } from './list-scope.ts';
import { HUNDRED_PERCENT, THRESHOLD } from './percent.ts';

export type Bound = 'lower' | 'upper';

export type Closure = {
  /** The order each entity entered the covered set (seeds first), or -1 if it never did. */
  rank: Int32Array;
  /** Covered entities in that order. */
  order: Int32Array;
  count: number;
};

/**
 * `lower`: unknown stakes count as 0, and only parties that surely count are seeds.
 * `upper`: an entity's unknown stakes held by covered owners count as all the percentage its
 * known stakes leave unaccounted for (100 − the known stakes, whoever holds them), and parties
 * that possibly count are seeds too.
 */
export function coveredSet(graph: OwnershipGraph, seeds: Uint8Array, minimumSeed: SeedLevel, bound: Bound): Closure {
  const { size, down, knownIn, isPerson } = graph;
  const closure = listedOnly(seeds, minimumSeed);
  const { rank, order } = closure;
  const held = new Float64Array(size);
  const unknownHeld = new Uint8Array(size);
  const upper = bound === 'upper';
  let count = closure.count;
  for (let head = 0; head < count; head++) {
    const owner = order[head] as number;
    const end = down.start[owner + 1] as number;
    for (let e = down.start[owner] as number; e < end; e++) {
      const owned = down.other[e] as number;
      // A natural person is never owned; validation refuses such a stake, this keeps the rule local.
      if ((rank[owned] as number) >= 0 || isPerson[owned]) continue;
      const stake = down.stake[e] as number;
      if (stake === UNKNOWN) unknownHeld[owned] = 1;
      else held[owned] = (held[owned] as number) + stake;
      const unaccounted = upper && unknownHeld[owned] ? Math.max(0, HUNDRED_PERCENT - (knownIn[owned] as number)) : 0;
      if ((held[owned] as number) + unaccounted >= THRESHOLD) {
        rank[owned] = count;
        order[count++] = owned;
      }
    }
  }
  return { rank, order, count };
}

/** The seeds alone: a rule not operative on the date reaches listed parties only. */
export function listedOnly(seeds: Uint8Array, minimumSeed: SeedLevel): Closure {
  const rank = new Int32Array(seeds.length).fill(-1);
  const order = new Int32Array(seeds.length);
  let count = 0;
  for (let v = 0; v < seeds.length; v++) {
    if ((seeds[v] as number) >= minimumSeed) {
      rank[v] = count;
      order[count++] = v;
    }
  }
  return { rank, order, count };
}

export const isCovered = (closure: Closure, v: number): boolean => (closure.rank[v] as number) >= 0;

/**
 * The stakes covered owners hold in `v`: the known ones summed, and whether any is unknown.
 * (The covered set stops counting once an entity is in; this recounts for the answer.)
 */
export function coveredStakes(graph: OwnershipGraph, closure: Closure, v: number): { known: number; unknown: boolean } {
  let known = 0;
  let unknown = false;
  const end = graph.up.start[v + 1] as number;
  for (let e = graph.up.start[v] as number; e < end; e++) {
    if (!isCovered(closure, graph.up.other[e] as number)) continue;
    const stake = graph.up.stake[e] as number;
    if (stake === UNKNOWN) unknown = true;
    else known += stake;
  }
  return { known, unknown };
}

/** The most covered owners may hold in `v`: the known stakes, plus all that is unaccounted for if any stake is unknown. */
export function upperStakes(graph: OwnershipGraph, closure: Closure, v: number): number {
  const { known, unknown } = coveredStakes(graph, closure, v);
  return known + (unknown ? Math.max(0, HUNDRED_PERCENT - (graph.knownIn[v] as number)) : 0);
}
