/**
 * Why a rule reaches the target, in terms a compliance officer can check against the ownership
 * records: the covered owners of the target and their stakes (contributors), and chains from
 * listed parties down to the target (paths), each hop saying how much of that entity covered
 * owners hold. A chain only climbs to owners that became covered earlier (ownership-rules.md
 * §5.5), so every chain is acyclic and ends at a listed party.
 */
import { type Closure, coveredStakes, isCovered } from './closure.ts';
import { type OwnershipGraph, UNKNOWN } from './graph.ts';
import type { DesignationList } from './list-scope.ts';
import { fromMillionths } from './percent.ts';
import type { RuleSets } from './rule-sets.ts';
import type { Contributor, OwnershipPath, PathHop } from './types.ts';

/** The most paths an answer lists (by contribution); `paths_truncated` says when there are more. */
export const MAX_PATHS = 50;
/** The most hops a path shows; a longer chain is shown from this far above the target. */
export const MAX_HOPS = 100;

type Link = { owner: number; stake: number };

const stakeValue = (stake: number): number | null => (stake === UNKNOWN ? null : fromMillionths(stake));

/** Largest stake first, unknown stakes after known ones, then input order. */
const byStake = (a: Link, b: Link) => (b.stake === UNKNOWN ? -1 : b.stake) - (a.stake === UNKNOWN ? -1 : a.stake) || a.owner - b.owner;

/** The covered owners of `v` worth explaining: nonzero stakes; above the target, only owners covered before `v`. */
function coveredOwners(graph: OwnershipGraph, closure: Closure, v: number, target: number): Link[] {
  const links: Link[] = [];
  const end = graph.up.start[v + 1] as number;
  for (let e = graph.up.start[v] as number; e < end; e++) {
    const owner = graph.up.other[e] as number;
    const stake = graph.up.stake[e] as number;
    if (stake === 0 || owner === target || !isCovered(closure, owner)) continue;
    if (v !== target && (closure.rank[owner] as number) >= (closure.rank[v] as number)) continue;
    links.push({ owner, stake });
  }
  return links.sort(byStake);
}

export function contributors(graph: OwnershipGraph, sets: RuleSets, target: number): Contributor[] {
  return coveredOwners(graph, sets.upper, target, target).map(({ owner, stake }) => ({
    owner: graph.ids[owner] as string,
    percent: stakeValue(stake),
    basis: sets.seeds[owner] ? 'listed' : 'ownership',
    certain: isCovered(sets.lower, owner) && stake !== UNKNOWN,
  }));
}

/**
 * Up to MAX_PATHS chains into the target, over `closure` (the lower set, or the upper one when
 * only unknown stakes could make the target covered), found depth first with the largest stakes
 * first. Above the target every covered entity has an owner covered before it, so each descent
 * reaches a listed party: the search never backtracks out of a dead end.
 */
export function explainPaths(graph: OwnershipGraph, sets: RuleSets, closure: Closure, target: number): { paths: OwnershipPath[]; truncated: boolean } {
  const paths: OwnershipPath[] = [];
  const isSeed = (v: number) => seedIn(closure, sets, v);
  const chain: { v: number; links: Link[]; next: number }[] = [{ v: target, links: coveredOwners(graph, closure, target, target), next: 0 }];
  // The only dead ends are chains that climb back to the target; this bounds the search all the same.
  for (let budget = MAX_PATHS * MAX_HOPS * 4; chain.length > 0; budget--) {
    if (budget === 0) return { paths, truncated: true };
    const top = chain[chain.length - 1] as { v: number; links: Link[]; next: number };
    const link = top.links[top.next++];
    if (!link) {
      chain.pop();
      continue;
    }
    const reachedTop = isSeed(link.owner) || chain.length >= MAX_HOPS;
    if (!reachedTop) {
      chain.push({ v: link.owner, links: coveredOwners(graph, closure, link.owner, target), next: 0 });
      continue;
    }
    if (paths.length === MAX_PATHS) return { paths, truncated: true };
    paths.push(
      toPath(graph, sets, [...chain.map((c) => ({ v: c.v, stake: (c.links[c.next - 1] as Link).stake })), { v: link.owner, stake: 0 }], isSeed(link.owner)),
    );
  }
  return { paths, truncated: false };
}

/** A seed of this closure: the lower set grows from definite seeds only, the upper one from possible seeds too. */
const seedIn = (closure: Closure, sets: RuleSets, v: number) => (sets.seeds[v] as number) >= (closure === sets.lower ? 2 : 1);

/**
 * `stack` runs from the target up; each entry's stake is the one its owner (the next entry) holds
 * in it. A hop above the target is `certain` when that owner is surely covered; the target's own
 * hop is the subject of the verdict, not a claim about it, so it is certain.
 */
function toPath(graph: OwnershipGraph, sets: RuleSets, stack: { v: number; stake: number }[], complete: boolean): OwnershipPath {
  const hops: PathHop[] = [];
  for (let i = stack.length - 1; i >= 0; i--) {
    const { v } = stack[i] as { v: number };
    const below = stack[i - 1];
    const listed = i === stack.length - 1 && complete;
    hops.push({
      entity: graph.ids[v] as string,
      ...(below && { percent_in_next: stakeValue(below.stake) }),
      basis: i === 0 ? ruleBasis(sets, v) : listed ? 'listed' : 'ownership',
      ...(listed ? { lists: sets.listsOf(v) } : { aggregate_percent: fromMillionths(coveredStakes(graph, sets.lower, v).known) }),
      certain: i === 0 || (listed ? sets.seeds[v] === 2 : isCovered(sets.lower, v)),
    });
  }
  const last = stack[0] as { stake: number };
  return {
    hops,
    contribution_percent: stakeValue(last.stake),
    certain: hops.every((h) => h.certain && h.percent_in_next !== null),
    complete,
    text: hops.map(hopText).join(' '),
  };
}

/** Why `v` is covered by a rule: listed itself, through ownership, or not at all. */
export const ruleBasis = (sets: RuleSets, v: number): PathHop['basis'] => (sets.seeds[v] === 2 ? 'listed' : isCovered(sets.lower, v) ? 'ownership' : 'none');

function hopText(hop: PathHop): string {
  const what = hop.lists
    ? `[${hop.lists.join(', ')}${hop.certain ? '' : ', programs unknown'}]`
    : `[covered owners hold ${hop.aggregate_percent}%${hop.certain ? '' : ', possibly covered'}]`;
  const arrow = hop.percent_in_next === undefined ? '' : ` —${hop.percent_in_next === null ? '?%' : `${hop.percent_in_next}%`}→`;
  return `${hop.entity} ${what}${arrow}`;
}

/** The listed parties whose coverage flows to the target over `closure`, and the target itself if listed. */
export function inheritedFrom(graph: OwnershipGraph, sets: RuleSets, closure: Closure, target: number): { entity: string; lists: DesignationList[] }[] {
  const reached = new Set<number>();
  const seen = new Uint8Array(graph.size);
  const queue = [target];
  seen[target] = 1;
  if (seedIn(closure, sets, target)) reached.add(target);
  for (let head = 0; head < queue.length; head++) {
    for (const { owner } of coveredOwners(graph, closure, queue[head] as number, target)) {
      if (seen[owner]) continue;
      seen[owner] = 1;
      if (seedIn(closure, sets, owner)) reached.add(owner);
      else queue.push(owner);
    }
  }
  return [...reached].sort((a, b) => a - b).map((v) => ({ entity: graph.ids[v] as string, lists: sets.listsOf(v) }));
}
