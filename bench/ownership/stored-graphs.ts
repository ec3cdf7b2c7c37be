/**
 * Ownership checks to store, shaped like a supplier's structure with names to screen: a target
 * company, companies owning it and each other down a hierarchy, and natural persons at the top,
 * stakes in each company adding up to at most 100 %. Persons are named from yente's synthetic
 * people; companies from their family names with a trade word and a legal form (so common words,
 * Trading, Logistics, Holdings, are shared across graphs and with list entries, as they are in a
 * real book of suppliers). One graph in `listedEvery` has a person named as a real SDN entry (a
 * minority stake: counted, not decisive), and a graph given `listedOwner` has a company of that
 * name holding 60 % of the target (an entry the update will newly list). Seeded: the same
 * seed, the same graphs.
 */
import { seededRandom } from '../matching/perturb.ts';

const TRADE_WORDS = [
  'Trading',
  'Logistics',
  'Holdings',
  'Industries',
  'Shipping',
  'Energy',
  'Metals',
  'Textiles',
  'Foods',
  'Pharma',
  'Marine',
  'Construction',
  'Engineering',
  'Capital',
  'Ventures',
  'Technologies',
  'Agro',
  'Chemicals',
  'Minerals',
  'Electronics',
  'Consulting',
  'Imports',
  'Freight',
  'Components',
];
const FORMS = ['GmbH', 'Ltd', 'LLC', 'S.A.', 'B.V.', 'AG', 'Limited', 'Inc.', 'FZE', 'OOO', 'Sp. z o.o.', 'S.r.l.'];
const COUNTRIES = ['DE', 'GB', 'NL', 'CY', 'AE', 'TR', 'CN', 'HK', 'PL', 'IT', 'IN', 'SG'];

export type NamePools = { people: readonly string[]; familyNames: readonly string[]; listedNames: readonly string[] };

export type Entity = { id: string; name: string; type: 'person' | 'entity'; country?: string };
type Stake = { owner: string; owned: string; percent: number };

/** `size` parties named from the pools: the first half (rounded up) companies `C<n>`, the rest persons `P<n>`; four in five with a country. */
export function namedParties(random: () => number, size: number, pools: NamePools): Entity[] {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  const companies = Math.ceil(size / 2);
  const entities: Entity[] = [];
  for (let e = 0; e < size; e++) {
    const company = e < companies;
    entities.push({
      id: `${company ? 'C' : 'P'}${e}`,
      name: company ? `${pick(pools.familyNames)} ${pick(TRADE_WORDS)} ${pick(FORMS)}` : pick(pools.people),
      type: company ? 'entity' : 'person',
      ...(random() < 0.8 && { country: pick(COUNTRIES) }),
    });
  }
  return entities;
}

/** Graph `i` of a book: `listedOwner` names its 60 % owner; one graph in `listedEvery` has a minority party named as a listed entry. */
export function storedGraph(i: number, size: number, pools: NamePools, options: { seed: number; asOf: string; listedOwner?: string; listedEvery: number }) {
  const random = seededRandom(options.seed * 1_000_003 + i);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  const companies = Math.ceil(size / 2);
  const entities = namedParties(random, size, pools);
  if (options.listedOwner) (entities[1] as Entity).name = options.listedOwner;
  if (i % options.listedEvery === 0) (entities[size - 1] as Entity).name = pick(pools.listedNames);

  // Each company has 100 % to give; a party's stake is in an older company (a lower number) than itself.
  const room = new Array<number>(companies).fill(100);
  const stakes: Stake[] = [];
  const give = (owner: number, owned: number, percent: number) => {
    const given = Math.min(percent, room[owned] as number);
    if (given < 0.01) return;
    room[owned] = (room[owned] as number) - given;
    stakes.push({ owner: (entities[owner] as Entity).id, owned: (entities[owned] as Entity).id, percent: Math.round(given * 100) / 100 });
  };
  give(1, 0, options.listedOwner ? 60 : 5 + random() * 40);
  for (let e = 2; e < size; e++) {
    const owned = Math.floor(random() * Math.min(e, companies));
    // The last party (named as a listed person in some graphs) holds a minority stake: counted, never decisive alone.
    give(e, owned, e === size - 1 ? 5 + random() * 5 : 5 + random() * 40);
  }
  return { target: 'C0', as_of: options.asOf, store: true, entities, ownerships: stakes };
}
