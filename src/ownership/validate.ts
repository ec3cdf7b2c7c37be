/**
 * The checks that make a query a graph the evaluation can trust, each problem pointed at
 * (RFC 6901) in the request body: a target that is one of the entities, unique entity ids,
 * stakes between known entities, nobody owning itself, no natural person owned, stakes of at
 * most six decimals, dates that exist, and no stake given twice (two sources reporting the same
 * 30 % must not become 60 %). Linear; nothing is evaluated when any problem is found.
 */
import { isCalendarDate } from './as-of.ts';
import { type ResolvedIds, resolveIds } from './graph.ts';
import { toMillionths } from './percent.ts';
import type { OwnershipLink, OwnershipQuery } from './types.ts';

export type GraphProblem = { pointer: string; detail: string };

/** The most problems reported; `total` counts them all. */
export const MAX_PROBLEMS = 1000;

/** The problems found; when there are none, the resolved ids for evaluateOwnership to reuse. */
export type Validation = { problems: GraphProblem[]; total: number; resolved?: ResolvedIds };

export function validateOwnershipQuery(query: OwnershipQuery): Validation {
  const problems: GraphProblem[] = [];
  let total = 0;
  const report = (pointer: string, detail: string) => {
    total++;
    if (problems.length < MAX_PROBLEMS) problems.push({ pointer, detail });
  };

  if (!isCalendarDate(query.asOf)) report('/as_of', `${query.asOf} is not a date (YYYY-MM-DD)`);
  const resolved = resolveIds(query);
  for (const [i, first] of resolved.repeats) report(`/entities/${i}/id`, `repeats /entities/${first}/id (${JSON.stringify(query.entities[i]?.id)})`);
  if (!resolved.indexOf.has(query.target)) report('/target', `${JSON.stringify(query.target)} is not the id of an entity in /entities`);

  // A plain loop without closures: 500,000 links go through it.
  for (let i = 0; i < query.ownerships.length; i++) {
    const link = query.ownerships[i] as OwnershipLink;
    const owned = resolved.owned[i] as number;
    if ((resolved.owner[i] as number) < 0) report(`/ownerships/${i}/owner`, `${JSON.stringify(link.owner)} is not the id of an entity in /entities`);
    if (owned < 0) report(`/ownerships/${i}/owned`, `${JSON.stringify(link.owned)} is not the id of an entity in /entities`);
    else if (link.owned === link.owner)
      report(`/ownerships/${i}/owned`, 'an entity cannot own itself; give stakes as shares of the outstanding shares, without treasury stock');
    else if (query.entities[owned]?.type === 'person')
      report(`/ownerships/${i}/owned`, `${JSON.stringify(link.owned)} is a natural person, who cannot be owned`);
    if (link.percent !== null) {
      const stake = toMillionths(link.percent);
      if (typeof stake !== 'number') report(`/ownerships/${i}/percent`, stake.problem);
    }
    if (link.start_date !== undefined || link.end_date !== undefined) checkDates(link, `/ownerships/${i}`, report);
  }
  for (const [i, first] of repeatedStakes(query.ownerships, resolved)) {
    report(`/ownerships/${i}`, `repeats /ownerships/${first} (the same owner, owned and kind over the same dates); give each stake once`);
  }
  return total === 0 ? { problems, total, resolved } : { problems, total };
}

function checkDates(link: OwnershipLink, at: string, report: (pointer: string, detail: string) => void) {
  for (const field of ['start_date', 'end_date'] as const) {
    const date = link[field];
    if (date !== undefined && !isCalendarDate(date)) report(`${at}/${field}`, `${date} is not a date (YYYY-MM-DD)`);
  }
  if (link.start_date && link.end_date && link.end_date < link.start_date) report(`${at}/end_date`, `is before start_date ${link.start_date}`);
}

/**
 * Pairs [later, earlier] of links with the same owner, owned and kind whose dates overlap. The
 * links are grouped by owned entity (a counting sort); within a group an owner seen before is the
 * rare case that needs a closer look, so the pass stays linear.
 */
function repeatedStakes(links: readonly OwnershipLink[], resolved: ResolvedIds): [number, number][] {
  const size = resolved.indexOf.size;
  const start = new Int32Array(size + 1);
  for (let i = 0; i < links.length; i++) {
    const owned = resolved.owned[i] as number;
    if (owned >= 0) start[owned + 1] = (start[owned + 1] as number) + 1;
  }
  for (let v = 0; v < size; v++) start[v + 1] = (start[v + 1] as number) + (start[v] as number);
  const fill = start.slice(0, size);
  const grouped = new Int32Array(start[size] as number);
  for (let i = 0; i < links.length; i++) {
    const owned = resolved.owned[i] as number;
    if (owned < 0) continue;
    grouped[fill[owned] as number] = i;
    fill[owned] = (fill[owned] as number) + 1;
  }
  const seenIn = new Int32Array(size).fill(-1);
  const repeats: [number, number][] = [];
  for (let v = 0; v < size; v++) {
    for (let g = start[v] as number; g < (start[v + 1] as number); g++) {
      const i = grouped[g] as number;
      const owner = resolved.owner[i] as number;
      if (owner < 0) continue;
      if (seenIn[owner] !== v) {
        seenIn[owner] = v;
        continue;
      }
      for (let h = start[v] as number; h < g; h++) {
        const j = grouped[h] as number;
        if (resolved.owner[j] === owner && sameStake(links[j] as OwnershipLink, links[i] as OwnershipLink)) {
          repeats.push([i, j]);
          break;
        }
      }
    }
  }
  return repeats.sort((a, b) => a[0] - b[0]);
}

const sameStake = (a: OwnershipLink, b: OwnershipLink) =>
  (a.kind ?? 'ownership') === (b.kind ?? 'ownership') &&
  (a.start_date ?? '') <= (b.end_date ?? '9999-12-31') &&
  (b.start_date ?? '') <= (a.end_date ?? '9999-12-31');
