/**
 * Watchlist entries for the benchmark: yente's 100,000 synthetic people (the candidate-generation
 * fixtures bench:matching's set (c) reads), real-looking names in many scripts with a date of
 * birth and a nationality. The names the prescreen mix sends as clean subjects are left out, so
 * the same requests find the same things with watchlists as without, and the difference measured
 * is what screening the watchlists costs. Where more entries are asked for than there are people
 * left, more are made by giving one person's first name another's family name. Seeded.
 */
import { partialDateText } from '../../src/screening/model.ts';
import { seededRandom, shuffled } from '../matching/perturb.ts';
import { readNegatives } from '../matching/sets/negatives.ts';

export type EntryBody = {
  external_id: string;
  name: string;
  dates_of_birth?: string[];
  countries?: string[];
  reason: string;
  severity: 'red' | 'orange' | 'yellow';
};

const SEVERITIES = ['red', 'orange', 'yellow'] as const;

/** At least `wanted` entry bodies, none named as a name in `excluded`, in a seeded order. */
export function watchlistEntries(dataDir: string, wanted: number, excluded: ReadonlySet<string>, seed: number): EntryBody[] {
  const random = seededRandom(seed ^ 0x27d4eb2f);
  const people = shuffled(
    readNegatives(dataDir).filter(({ name }) => !excluded.has(name)),
    random,
  );
  const names = new Set(people.map((p) => p.name));
  const bodies: EntryBody[] = people.map(({ name, qualified }, i) => ({
    external_id: `bench-${i}`,
    name,
    ...(qualified.dateOfBirth && { dates_of_birth: [partialDateText(qualified.dateOfBirth)] }),
    ...(qualified.countries && { countries: qualified.countries }),
    reason: 'Benchmark entry: a synthetic person.',
    severity: SEVERITIES[i % SEVERITIES.length] as EntryBody['severity'],
  }));
  for (let i = 0; bodies.length < wanted && i < people.length * 2; i++) {
    const first = (people[i % people.length]?.name ?? '').split(' ')[0];
    const family = (people[(i * 7 + 3) % people.length]?.name ?? '').split(' ').at(-1);
    const name = `${first} ${family}`;
    if (!first || !family || first === family || names.has(name) || excluded.has(name)) continue;
    names.add(name);
    bodies.push({ external_id: `bench-${bodies.length}`, name, reason: 'Benchmark entry: a synthetic person.', severity: 'orange' });
  }
  return bodies;
}
