/**
 * The checks that make a query a graph the evaluation can trust, each problem pointed at
 * (RFC 6901) in the request body: a target that is one of the entities, unique entity ids,
 * stakes between known entities, nobody owning itself, no natural person owned, stakes of at
 * most six decimals, dates that exist, and no stake given twice (two sources reporting the same
 * 30 % must not become 60 %). All are found in one linear pass; nothing is evaluated when any is.
 */
import { isCalendarDate } from './as-of.ts';
import { toMillionths } from './percent.ts';
import type { OwnershipQuery } from './types.ts';

export type GraphProblem = { pointer: string; detail: string };

/** The most problems reported; `total` counts them all. */
export const MAX_PROBLEMS = 1000;

export type Validation = { problems: GraphProblem[]; total: number };

export function validateOwnershipQuery(query: OwnershipQuery): Validation {
  const problems: GraphProblem[] = [];
  let total = 0;
  const report = (pointer: string, detail: string) => {
    total++;
    if (problems.length < MAX_PROBLEMS) problems.push({ pointer, detail });
  };

  if (!isCalendarDate(query.asOf)) report('/as_of', `${query.asOf} is not a date (YYYY-MM-DD)`);
  const indexOf = new Map<string, number>();
  query.entities.forEach((entity, i) => {
    const first = indexOf.get(entity.id);
    if (first === undefined) indexOf.set(entity.id, i);
    else report(`/entities/${i}/id`, `repeats /entities/${first}/id (${JSON.stringify(entity.id)})`);
  });
  if (!indexOf.has(query.target)) report('/target', `${JSON.stringify(query.target)} is not the id of an entity in /entities`);

  const size = query.entities.length;
  const kinds = new Map<string, number>();
  const seen = new Map<number, number[]>();
  query.ownerships.forEach((link, i) => {
    const at = `/ownerships/${i}`;
    const owner = indexOf.get(link.owner);
    const owned = indexOf.get(link.owned);
    if (owner === undefined) report(`${at}/owner`, `${JSON.stringify(link.owner)} is not the id of an entity in /entities`);
    if (owned === undefined) report(`${at}/owned`, `${JSON.stringify(link.owned)} is not the id of an entity in /entities`);
    else if (link.owned === link.owner) report(`${at}/owned`, 'an entity cannot own itself; give stakes as shares of the outstanding shares, without treasury stock');
    else if (query.entities[owned]?.type === 'person') report(`${at}/owned`, `${JSON.stringify(link.owned)} is a natural person, who cannot be owned`);
    if (link.percent !== null) {
      const stake = toMillionths(link.percent);
      if (typeof stake !== 'number') report(`${at}/percent`, stake.problem);
    }
    for (const field of ['start_date', 'end_date'] as const) {
      const date = link[field];
      if (date !== undefined && !isCalendarDate(date)) report(`${at}/${field}`, `${date} is not a date (YYYY-MM-DD)`);
    }
    if (link.start_date && link.end_date && link.end_date < link.start_date) report(`${at}/end_date`, `is before start_date ${link.start_date}`);
    if (owner === undefined || owned === undefined) return;
    const kind = link.kind ?? 'ownership';
    const kindIndex = kinds.get(kind) ?? kinds.set(kind, kinds.size).get(kind) ?? 0;
    // One number per (owner, owned, kind): below 2^53 for 100,000 entities and any number of kinds up to 500,000.
    const key = (owner * size + owned) * (query.ownerships.length + 1) + kindIndex;
    const earlier = seen.get(key);
    const repeated = earlier?.find((j) => overlap(query.ownerships[j] as typeof link, link));
    if (repeated !== undefined) report(at, `repeats /ownerships/${repeated} (the same owner, owned and kind over the same dates); give each stake once`);
    if (earlier) earlier.push(i);
    else seen.set(key, [i]);
  });
  return { problems, total };
}

const overlap = (a: { start_date?: string; end_date?: string }, b: { start_date?: string; end_date?: string }) =>
  (a.start_date ?? '') <= (b.end_date ?? '9999-12-31') && (b.start_date ?? '') <= (a.end_date ?? '9999-12-31');
