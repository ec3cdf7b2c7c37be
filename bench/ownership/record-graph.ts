/**
 * One large ownership check to keep on record and draw (bench:ownership-record): the named parties
 * of stored-graphs.ts, half companies and half persons, in a layered holding structure below the
 * target. Each company holds a stake in a company of the layer below it (the first to do so takes
 * a majority, as a parent does; the others a minority), one in seven also a small cross-holding in
 * another older company, and persons hold the companies at the top. 3 % of stakes are unknown, and
 * one stake runs back up, closing a single cycle of three companies.
 *
 * Listed parties are given as designations, so that verdict paths exist whatever screening finds:
 * the company at the top of the target's chain of majority holders is on the SDN (the target is
 * blocked down that chain), the top of the chain above the target's next company holder is on the
 * Entity List, and about 1 % of the other parties are on the SDN, the Entity List or the MEU list.
 * Stakes on those two chains are known. Two persons are named as real SDN entries, for screening
 * to find. The same seed, the same graph.
 */
import { seededRandom } from '../matching/perturb.ts';
import { type Entity, type NamePools, namedParties } from './stored-graphs.ts';

type Designation = { list: 'OFAC_SDN' | 'BIS_EL' | 'BIS_MEU'; programs?: string[] };
type Party = Entity & { designations?: Designation[] };
type Stake = { owner: string; owned: string; percent: number | null };

const PROGRAMS = ['RUSSIA-EO14024', 'IRAN', 'SDGT', 'VENEZUELA-EO13850', 'NPWMD'];
const UNKNOWN_SHARE = 0.03;
const LISTED_SHARE = 0.01;
const NAMED_AS_LISTED = 2;

export function recordGraph(size: number, pools: NamePools, options: { seed: number; asOf: string }) {
  const random = seededRandom(options.seed);
  const entities: Party[] = namedParties(random, size, pools);
  const companies = Math.ceil(size / 2);
  const room = new Array<number>(companies).fill(100);
  /** The company holding a majority of each company, if any (-1). */
  const majority = new Array<number>(companies).fill(-1);
  const holdings: { owner: number; owned: number; percent: number }[] = [];
  const held = new Map<string, { owner: number; owned: number; percent: number }>();
  /** A stake of up to `percent` in `owned`, or in the next older company with room when it is fully held (older: no cycle); a second stake in the same company adds to the first. */
  const give = (owner: number, owned: number, percent: number) => {
    let at = owned;
    while ((room[at] as number) < 2) at = at > 0 ? at - 1 : Math.min(owner, companies) - 1;
    const given = Math.round(Math.min(percent, room[at] as number) * 100) / 100;
    room[at] = (room[at] as number) - given;
    const key = `${owner}>${at}`;
    const before = held.get(key);
    if (before) before.percent = Math.round((before.percent + given) * 100) / 100;
    else {
      const stake = { owner, owned: at, percent: given };
      held.set(key, stake);
      holdings.push(stake);
    }
    return at;
  };

  const parent = new Array<number>(companies).fill(-1);
  for (let c = 1; c < companies; c++) {
    // Two to four holders a company on average: layers grow about threefold away from the target.
    const below = Math.floor((c - 1) / (2 + random() * 2));
    const first = majority[below] === -1;
    parent[c] = give(c, below, first ? 51 + random() * 29 : 5 + random() * 20);
    if (first) majority[below] = c;
    if (random() < 1 / 7) give(c, Math.floor(random() * c), 2 + random() * 13);
  }
  for (let p = companies; p < size; p++) {
    // Persons hold mostly the companies furthest from the target.
    const stakes = random() < 0.2 ? 2 : 1;
    for (let s = 0; s < stakes; s++) give(p, companies - 1 - Math.floor(random() ** 2 * companies), 10 + random() * 50);
  }
  closeOneCycle(holdings, parent, room, companies);

  const chainTop = (from: number, onPath: Set<number>) => {
    let at = from;
    onPath.add(at);
    while ((majority[at] as number) >= 0) {
      at = majority[at] as number;
      onPath.add(at);
    }
    return at;
  };
  const decided = new Set<number>([0]);
  const sdnTop = chainTop(majority[0] as number, decided);
  const nextHolder = holdings.filter((h) => h.owned === 0 && h.owner < companies && h.owner !== majority[0]).sort((a, b) => b.percent - a.percent)[0];
  const elTop = nextHolder ? chainTop(nextHolder.owner, decided) : undefined;
  (entities[sdnTop] as Party).designations = [{ list: 'OFAC_SDN', programs: ['RUSSIA-EO14024'] }];
  if (elTop !== undefined) (entities[elTop] as Party).designations = [{ list: 'BIS_EL' }];
  entities.forEach((entity, e) => {
    if (decided.has(e) || random() >= LISTED_SHARE) return;
    const program = PROGRAMS[Math.floor(random() * PROGRAMS.length)] as string;
    const draw = random();
    entity.designations = [entity.type === 'person' || draw < 0.4 ? { list: 'OFAC_SDN', programs: [program] } : { list: draw < 0.8 ? 'BIS_EL' : 'BIS_MEU' }];
  });
  for (let n = 1; n <= NAMED_AS_LISTED; n++) {
    const person = entities[size - n * 7] as Party;
    if (!person.designations) person.name = pools.listedNames[Math.floor(random() * pools.listedNames.length)] as string;
  }

  const ownerships = holdings.map(
    (h): Stake => ({
      owner: (entities[h.owner] as Party).id,
      owned: (entities[h.owned] as Party).id,
      percent: decided.has(h.owner) && decided.has(h.owned) ? h.percent : random() < UNKNOWN_SHARE ? null : h.percent,
    }),
  );
  return { target: 'C0', as_of: options.asOf, store: true, screen_names: true, entities, ownerships };
}

/**
 * Every stake so far runs from a younger company to an older one, so there is no cycle; one
 * company a quarter of the way up takes 3 % of a company that holds its own holding company.
 */
function closeOneCycle(holdings: { owner: number; owned: number; percent: number }[], parent: number[], room: number[], companies: number) {
  for (let c = Math.floor(companies / 4); c < companies; c++) {
    const middle = parent[c] as number;
    const top = parent[middle] as number;
    if (middle <= 0 || top <= 0 || (room[c] as number) < 3) continue;
    room[c] = (room[c] as number) - 3;
    holdings.push({ owner: top, owned: c, percent: 3 });
    return;
  }
}
