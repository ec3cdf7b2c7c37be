/**
 * Set (f), dates of birth that disagree the way data entry gets them wrong, on exact listed
 * names: the year off by one or by two (seeded direction; the other one when the list also gives
 * that year), day and month swapped (only when the day could be a month and differs from it), and
 * no date at all. SDN people with a full, exact listed date of birth (the first such date); the name is screened in
 * the order a visitor types it.
 */
import type { DateOfBirth, ListEntity, PartialDate } from '../../../src/screening/model.ts';
import { randomFor, unlistName } from '../perturb.ts';
import { type ClassCase, type ClassVariant, entityKey } from './class-case.ts';

type Full = Required<PartialDate>;

const isFull = (d: DateOfBirth): d is DateOfBirth & Full => d.month !== undefined && d.day !== undefined && !d.circa && !d.until;
const show = (d: PartialDate | undefined) =>
  d
    ? [d.year, d.month, d.day]
        .filter((p) => p !== undefined)
        .map((p) => String(p).padStart(2, '0'))
        .join('-')
    : 'none';

/** True when one of the entity's listed dates covers this year (a range included). */
const listsYear = (entity: ListEntity, year: number) =>
  entity.datesOfBirth.some((d) => d.year === year || (d.until !== undefined && d.year <= year && year <= d.until.year));

export function yearOff(entity: ListEntity, listed: Full, by: number): PartialDate | undefined {
  const sign = randomFor(entityKey(entity), `dob-${by}`)() < 0.5 ? -1 : 1;
  const year = [listed.year + sign * by, listed.year - sign * by].find((y) => !listsYear(entity, y));
  return year === undefined ? undefined : { ...listed, year };
}

export function dayMonthSwapped(entity: ListEntity, listed: Full): PartialDate | undefined {
  if (listed.day > 12 || listed.day === listed.month) return undefined;
  const swapped = { year: listed.year, month: listed.day, day: listed.month };
  const listedToo = entity.datesOfBirth.some((d) => d.year === swapped.year && d.month === swapped.month && d.day === swapped.day);
  return listedToo ? undefined : swapped;
}

export function dateOfBirthVariants(sdnPersons: readonly ListEntity[]): ClassVariant[] {
  const perturbations: [string, (entity: ListEntity, listed: Full) => PartialDate | undefined | 'absent'][] = [
    ['date of birth off by 1 year', (e, d) => yearOff(e, d, 1)],
    ['date of birth off by 2 years', (e, d) => yearOff(e, d, 2)],
    ['date of birth day/month swapped', dayMonthSwapped],
    ['date of birth absent', () => 'absent'],
  ];
  return perturbations.map(([name, perturb]) => ({
    name,
    cases: sdnPersons.flatMap((entity): ClassCase[] => {
      const full = entity.datesOfBirth.filter(isFull);
      const primary = entity.names.find((n) => n.kind === 'primary')?.full;
      if (full.length === 0 || !primary) return [];
      const listed = full[0] as Full;
      const date = perturb(entity, listed);
      if (date === undefined) return [];
      const query = { name: unlistName(primary), kind: 'person' as const, ...(date !== 'absent' && { dateOfBirth: date }) };
      return [
        {
          key: entityKey(entity),
          query,
          entity,
          label: `${query.name}, born ${date === 'absent' ? 'not given' : show(date)}  (listed ${show(listed)}; ${entity.list} ${entity.entryId})`,
        },
      ];
    }),
  }));
}
