/**
 * Seeded random ownership graphs shaped like corporate registries: one entity in six a natural
 * person (owners only), companies owned mostly by older companies (a hierarchy), a few
 * conglomerates with dozens of shareholders and a few holdings with dozens of subsidiaries (a
 * heavy-tailed fan-in and fan-out), stakes in each company adding up to 60–100 %, about 1 % of
 * links pointing back up the hierarchy (cycles), 3 % of stakes unknown and 2 % of links
 * control rather than ownership; about 1 % of parties listed on the SDN, Entity, MEU or SSI
 * lists, and one holding in ten (the vehicles sanctions aim at). The same seed gives the same graph.
 */
import type { Designation } from '../../src/ownership/list-scope.ts';
import type { GraphEntity, OwnershipLink, OwnershipQuery } from '../../src/ownership/types.ts';
import { seededRandom } from '../matching/perturb.ts';

const PROGRAMS = ['RUSSIA-EO14024', 'IRAN', 'SDGT', 'VENEZUELA-EO13850', 'UKRAINE-EO13662', 'NPWMD', 'GLOMAG'];
const COUNTRIES = ['CY', 'RU', 'CN', 'AE', 'TR', 'GB', 'US', 'DE', 'HK', 'VG'];

export function randomOwnershipGraph(entityCount: number, linkCount: number, seed: number, asOf: string): OwnershipQuery {
  const random = seededRandom(seed);
  const below = (n: number) => Math.floor(random() * n);
  const persons = Math.round(entityCount / 6);
  const companies = entityCount - persons;
  const entities: GraphEntity[] = [];
  for (let i = 0; i < persons; i++) entities.push({ id: `P${i}`, type: 'person', ...designated(random, 0.01, 'person') });
  const conglomerates = Math.max(1, Math.round(companies / 100));
  const holdings = Math.max(1, Math.round(companies / 50));
  for (let i = 0; i < companies; i++) {
    entities.push({
      id: `C${i}`,
      type: 'entity',
      country: COUNTRIES[below(COUNTRIES.length)] as string,
      ...designated(random, i < holdings ? 0.1 : 0.01, 'entity'),
    });
  }

  const pairs = new Set<number>();
  const byOwned = new Map<number, { owner: number; kind: string; unknown: boolean }[]>();
  while (pairs.size < linkCount) {
    // Companies are numbered persons … entityCount - 1; older companies have lower numbers.
    const owned = persons + (random() < 0.2 ? (below(conglomerates) * 97) % companies : below(companies));
    let owner: number;
    const draw = random();
    if (draw < 0.35) owner = below(persons);
    else if (draw < 0.55) owner = persons + below(holdings);
    else if (draw < 0.56 || owned === persons) owner = persons + below(companies);
    else owner = persons + below(owned - persons);
    const key = owner * entityCount + owned;
    if (owner === owned || pairs.has(key)) continue;
    pairs.add(key);
    const links = byOwned.get(owned) ?? byOwned.set(owned, []).get(owned) ?? [];
    links.push({ owner, kind: random() < 0.02 ? 'control' : 'ownership', unknown: random() < 0.03 });
  }

  const ownerships: OwnershipLink[] = [];
  for (const [owned, links] of byOwned) {
    // The stakes in one company add up to 60–100 %, split unevenly; two decimals, as registries give them.
    const weights = links.map(() => random() ** 2 + 0.01);
    const total = weights.reduce((a, b) => a + b, 0);
    const outstanding = 60 + random() * 40;
    links.forEach((link, i) => {
      const percent = Math.floor(((outstanding * (weights[i] as number)) / total) * 100) / 100;
      ownerships.push({
        owner: (entities[link.owner] as GraphEntity).id,
        owned: (entities[owned] as GraphEntity).id,
        percent: link.unknown ? null : percent,
        ...(link.kind !== 'ownership' && { kind: link.kind }),
      });
    });
  }
  // The target: the youngest company, at the bottom of the hierarchy, with the most owners above it.
  return { target: `C${companies - 1}`, asOf, entities, ownerships };
}

function designated(random: () => number, share: number, type: 'person' | 'entity'): { designations?: (Designation & { source: 'given' })[] } {
  if (random() >= share) return {};
  const draw = random();
  const program = PROGRAMS[Math.floor(random() * PROGRAMS.length)] as string;
  if (type === 'person' || draw < 0.5) return { designations: [{ list: 'OFAC_SDN', programs: [program], source: 'given' }] };
  if (draw < 0.8) return { designations: [{ list: 'BIS_EL', source: 'given' }] };
  if (draw < 0.9) return { designations: [{ list: 'BIS_MEU', source: 'given' }] };
  return { designations: [{ list: 'OFAC_SSI', programs: ['UKRAINE-EO13662'], source: 'given' }] };
}
