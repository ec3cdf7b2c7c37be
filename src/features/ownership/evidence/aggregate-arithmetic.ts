/**
 * The aggregation written out as sums an auditor can redo by hand: "30% + 25% = 55% ≥ 50%". The
 * figures are the stored answer's (the contributors and the paths' hops); the sums are redone
 * here in exact millionths, as the evaluation adds them, and where the stated aggregate holds
 * more than the stakes shown (owners not on the paths listed) the difference is a term of its
 * own, so every line adds up.
 */
import { fromMillionths, THRESHOLD, toMillionths } from '../../../ownership/percent.ts';
import type { RuleAnswer as Rule } from './ownership-evidence-input.ts';
import { counted, percentWords } from './ownership-words.ts';

type Path = Rule['paths'][number];

/** Past this many terms a sum whose stakes are in a table above it is stated, not written out. */
export const MAX_TERMS = 12;

const exact = (percent: number): number => {
  const value = toMillionths(percent);
  if (typeof value !== 'number') throw new Error(`A stored stake ${value.problem}`);
  return value;
};

/** A stake in a sum, and what it is: "held by …", "(possibly covered)". */
type Term = { percent: number; label?: string };

/** `terms` added up to `stated`, compared with the 50% threshold; `tabled`: what the terms are called in the table above that lists them. */
export function sumLine(terms: Term[], stated: number, tabled?: [one: string, many: string]): string {
  const shown = terms.reduce((sum, t) => sum + exact(t.percent), 0);
  const rest = exact(stated) - shown;
  const all = rest > 0 ? [...terms, { percent: fromMillionths(rest), label: 'held by other covered owners' }] : terms;
  const compared = `${exact(stated) >= THRESHOLD ? '≥' : '<'} 50%`;
  if (all.length === 0) return `0% ${compared}: no covered owner holds a stake`;
  const left =
    tabled && all.length > MAX_TERMS
      ? `the ${counted(all.length, ...tabled)} in the table above`
      : all.map((t) => `${t.percent}%${t.label ? ` ${t.label}` : ''}`).join(' + ');
  const disagrees = rest < 0 ? ` (the stakes shown add up to ${fromMillionths(shown)}%)` : '';
  return `${left} = ${stated}%${disagrees} ${compared}`;
}

/**
 * The target's covered owners added up: the lower bound from the stakes surely held by surely
 * covered owners, and, when anything is uncertain, the upper bound with every known stake of a
 * possibly covered owner and, for stakes of unknown size, all that the known stakes leave.
 */
export function targetSums(rule: Rule, name: (id: string) => string): { lower: string; upper?: string } {
  const heldBy = (owner: string) => `held by ${name(owner)}`;
  const certain = rule.contributors.filter((c) => c.certain && c.percent !== null).map((c) => ({ percent: c.percent as number, label: heldBy(c.owner) }));
  const lower = sumLine(certain, rule.aggregate_percent ?? 0, ['certain stake', 'certain stakes']);
  const upperTotal = rule.aggregate_percent_upper;
  if (upperTotal === null || rule.contributors.every((c) => c.certain)) return { lower };
  const known = rule.contributors.filter((c) => c.percent !== null);
  const unknown = rule.contributors.length - known.length;
  const terms: Term[] = known.map((c) => ({ percent: c.percent as number, label: `${heldBy(c.owner)}${c.certain ? '' : ' (possibly covered)'}` }));
  const allowance = exact(upperTotal) - terms.reduce((sum, t) => sum + exact(t.percent), 0);
  if (unknown > 0)
    terms.push({ percent: fromMillionths(Math.max(0, allowance)), label: `at most, for ${counted(unknown, 'stake', 'stakes')} of unknown size` });
  return { lower, upper: sumLine(terms, upperTotal, ['stake', 'stakes']) };
}

export type EntitySum = { entity: string; owners: { owner: string; percent: number | null; certain: boolean }[]; aggregate: number };

/**
 * Each entity between a listed party and the target on the paths shown, with the covered owners
 * the paths show holding it: nearest the target first, each entity and owner once.
 */
export function intermediateSums(paths: Path[]): EntitySum[] {
  const sums = new Map<string, EntitySum>();
  for (const { hops } of paths) {
    for (let i = hops.length - 2; i >= 1; i--) {
      const hop = hops[i] as Path['hops'][number];
      const owner = hops[i - 1] as Path['hops'][number];
      let sum = sums.get(hop.entity);
      if (!sum) sums.set(hop.entity, (sum = { entity: hop.entity, owners: [], aggregate: hop.aggregate_percent ?? 0 }));
      if (sum.owners.some((o) => o.owner === owner.entity)) continue;
      sum.owners.push({ owner: owner.entity, percent: owner.percent_in_next ?? null, certain: owner.certain });
    }
  }
  return [...sums.values()];
}

/** "30% (A) + 25% (B) = 55% ≥ 50%", and the owners only possibly covered or of unknown stake after it. */
export function entitySumLine(sum: EntitySum, name: (id: string) => string): string {
  const sure = sum.owners.filter((o) => o.certain && o.percent !== null);
  const unsure = sum.owners.filter((o) => !(o.certain && o.percent !== null));
  const line = sumLine(
    sure.map((o) => ({ percent: o.percent as number, label: `held by ${name(o.owner)}` })),
    sum.aggregate,
  );
  if (unsure.length === 0) return line;
  return `${line}; possibly also ${unsure.map((o) => `${percentWords(o.percent)} held by ${name(o.owner)}`).join(' + ')}`;
}
