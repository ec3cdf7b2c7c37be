/**
 * Set (f), digits typed for letters that look like them (0 for O, 1 for I or l, 3 for E, 5 for S,
 * 4 for A, 8 for B, 9 for g): one or two per name (two in different words when it has two words
 * with such letters), at any position in a word, its first and last letters included. Seeded by
 * the name, so a name always gets the same variant.
 */
import type { ListEntity } from '../../../src/screening/model.ts';
import { randomFor, shuffled, unlistName } from '../perturb.ts';
import { type ClassVariant, findCase } from './class-case.ts';
import { isLatinName } from './words.ts';

const LOOK_ALIKES: Record<string, string> = { o: '0', i: '1', l: '1', e: '3', s: '5', a: '4', b: '8', g: '9' };

export function digitsForLetters(name: string): string | undefined {
  const letters = Array.from(name);
  let word = 0;
  const positions = letters.map((c, i) => ({ c, i, word: /\s/.test(c) ? ++word : word })).filter(({ c }) => LOOK_ALIKES[c.toLowerCase()] !== undefined);
  if (positions.length === 0) return undefined;
  const random = randomFor(name, 'digits');
  const [first, ...others] = shuffled(positions, random) as [(typeof positions)[number], ...typeof positions];
  const second = others.find((p) => p.word !== first.word) ?? others[0];
  for (const { c, i } of second && random() < 0.5 ? [first, second] : [first]) letters[i] = LOOK_ALIKES[c.toLowerCase()] as string;
  return letters.join('');
}

export function digitsForLettersVariants(persons: readonly ListEntity[], organizations: readonly ListEntity[]): ClassVariant[] {
  const rows = (entities: readonly ListEntity[], kind: 'person' | 'organization') =>
    entities.flatMap((entity) => {
      const primary = entity.names.find((n) => n.kind === 'primary')?.full;
      if (!primary || !isLatinName(primary)) return [];
      const query = digitsForLetters(kind === 'person' ? unlistName(primary) : primary);
      return query ? [findCase(entity, { name: query, kind }, `listed: ${primary}`)] : [];
    });
  return [
    { name: 'digits for letters (people)', cases: rows(persons, 'person') },
    { name: 'digits for letters (organizations)', cases: rows(organizations, 'organization') },
  ];
}
