/**
 * The benchmark's seeded query mix, in four categories measured separately: exact list names,
 * typos of list names (bench/matching/perturb.ts), transliterations (the UN's original-script
 * names, and Latin list names of people spelled in Cyrillic) and clean non-matches (the
 * synthetic negatives, with their date of birth and nationality). The same seed gives the same
 * queries, so two runs measure the same work.
 */
import type { SubjectQuery } from '../../src/screening/match-types.ts';
import type { ListEntity } from '../../src/screening/model.ts';
import { seededRandom, typo, unlistName } from '../matching/perturb.ts';
import type { NegativeSubject } from '../matching/sets/negatives.ts';
import { kindOf } from '../matching/sets/temporal-holdout.ts';

export type Category = 'exact' | 'typo' | 'transliteration' | 'clean';
export type BenchQuery = { category: Category; query: SubjectQuery };

/** Latin → Cyrillic, longest spellings first, as a Russian speaker would write a foreign name. */
const CYRILLIC: [string, string][] = [
  ['shch', 'щ'],
  ['sh', 'ш'],
  ['ch', 'ч'],
  ['zh', 'ж'],
  ['kh', 'х'],
  ['ts', 'ц'],
  ['ya', 'я'],
  ['yu', 'ю'],
  ['yo', 'ё'],
  ['a', 'а'],
  ['b', 'б'],
  ['c', 'к'],
  ['d', 'д'],
  ['e', 'е'],
  ['f', 'ф'],
  ['g', 'г'],
  ['h', 'х'],
  ['i', 'и'],
  ['j', 'дж'],
  ['k', 'к'],
  ['l', 'л'],
  ['m', 'м'],
  ['n', 'н'],
  ['o', 'о'],
  ['p', 'п'],
  ['q', 'к'],
  ['r', 'р'],
  ['s', 'с'],
  ['t', 'т'],
  ['u', 'у'],
  ['v', 'в'],
  ['w', 'в'],
  ['x', 'кс'],
  ['y', 'й'],
  ['z', 'з'],
];

export function cyrillicSpelling(latin: string): string {
  let out = '';
  const text = latin.toLowerCase();
  for (let i = 0; i < text.length; ) {
    const hit = CYRILLIC.find(([from]) => text.startsWith(from, i));
    out += hit ? hit[1] : text[i];
    i += hit ? hit[0].length : 1;
  }
  return out.replace(/(^|\s)(\p{L})/gu, (_, space: string, letter: string) => space + letter.toUpperCase());
}

export function buildQueryMix(entities: readonly ListEntity[], negatives: readonly NegativeSubject[], perCategory: number, seed: number): BenchQuery[] {
  const random = seededRandom(seed);
  const sample = <T>(items: readonly T[], n: number): T[] =>
    Array.from({ length: Math.min(n, items.length) }, () => items[Math.floor(random() * items.length)] as T);
  const primary = (e: ListEntity) => e.names[0]?.full ?? '';
  const listed = entities.filter((e) => primary(e) !== '');

  const exact = sample(listed, perCategory).map((e) => ({ category: 'exact' as const, query: { name: primary(e), kind: kindOf(e) } }));
  const typos = sample(listed, perCategory * 2)
    .flatMap((e) => {
      const name = typo(primary(e));
      return name ? [{ category: 'typo' as const, query: { name, kind: kindOf(e) } }] : [];
    })
    .slice(0, perCategory);
  const originalScript = entities.flatMap((e) => e.names.filter((n) => n.kind === 'original_script').map((n) => ({ name: n.full, kind: kindOf(e) })));
  const people = listed.filter((e) => e.type === 'person');
  // Up to half original-script names (as many as the UN has), the rest Cyrillic spellings of listed people.
  const inOwnScript = Math.min(Math.floor(perCategory / 2), originalScript.length);
  const transliterations = [
    ...sample(originalScript, inOwnScript),
    ...sample(people, perCategory - inOwnScript).map((e) => ({ name: cyrillicSpelling(unlistName(primary(e))), kind: 'person' as const })),
  ].map((query) => ({ category: 'transliteration' as const, query }));
  const clean = sample(negatives, perCategory).map((n) => ({ category: 'clean' as const, query: n.qualified }));
  return [...exact, ...typos, ...transliterations, ...clean];
}
