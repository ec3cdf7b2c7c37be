/**
 * Set (f), people's names with something the listing does not carry:
 *
 * - suffix or honorific: a generational suffix at the end (Jr, Jr., Sr., II, III, IV; "Jr." and
 *   "Sr." half the time after a comma, as many write them) or an honorific at the start (Dr., Mr, Mrs, Prof., Gen.;
 *   Mr and Mrs as the listed gender allows);
 * - extra given name: one given name of ANOTHER listed person of the same list (and sanctions
 *   program), after the first word;
 * - extra name part: for long Arabic-style names (a bin/ibn/abu/al particle, or 4+ words) one more
 *   part, from other such names of the same list: "bin X" extending the nasab chain where there is
 *   one, a plain name part elsewhere.
 *
 * The clean subjects of the set get the same treatment (a pool of their own given names).
 */
import type { ListEntity } from '../../../src/screening/model.ts';
import { pick, randomFor, unlistName } from '../perturb.ts';
import { type ClassVariant, entityKey, findCase } from './class-case.ts';
import { foldToken, inStyleOf, isLatinName } from './words.ts';

const SUFFIXES = ['Jr', 'Jr.', 'Sr.', 'II', 'III', 'IV'];
const HONORIFICS = ['Dr.', 'Mr', 'Mrs', 'Prof.', 'Gen.'];
const ALREADY_SUFFIXED = new Set(['jr', 'sr', 'ii', 'iii', 'iv']);

/**
 * Particles of Arabic names, which bind to the word after them (Abd al-Aziz is one name);
 * NASAB are the "son/daughter of" ones a chain of ancestors repeats.
 */
const ARABIC_PARTICLES = new Set(['bin', 'ibn', 'ben', 'bint', 'abu', 'abou', 'al', 'el', 'ould', 'abd']);
const NASAB = new Set(['bin', 'ibn', 'ben', 'bint']);

const wordsOfName = (name: string) => name.split(' ').filter(Boolean);
const isParticle = (word: string) => ARABIC_PARTICLES.has(foldToken(word)) || /^(?:al|el)-/i.test(word);

/** A name part another person's name can lend: letters only, 3 or more, no particle. */
export const isLendableName = (word: string): boolean => /^\p{L}{3,}$/u.test(word) && !isParticle(word);

/**
 * 4+ words, or an Arabic particle where Arabic names have one: al-/el- joined to a word anywhere,
 * a free-standing particle followed by a name (Bin as a Chinese given name, "XU Bin", is not one).
 */
export const isArabicStyle = (name: string): boolean => {
  const words = wordsOfName(name);
  const particleAt = (word: string, i: number) =>
    /^(?:al|el)-/i.test(word) || (ARABIC_PARTICLES.has(foldToken(word)) && i + 1 < words.length && (i > 0 || !NASAB.has(foldToken(word))));
  return words.length >= 4 || words.some(particleAt);
};

export function withSuffixOrHonorific(name: string, gender?: 'male' | 'female'): string | undefined {
  const words = wordsOfName(name);
  if (words.length === 0 || ALREADY_SUFFIXED.has(foldToken(words.at(-1) as string))) return undefined;
  const random = randomFor(name, 'honorific');
  if (random() < 0.5) {
    const suffix = pick(random, SUFFIXES);
    return `${name}${suffix.endsWith('.') && random() < 0.5 ? ',' : ''} ${suffix}`;
  }
  const titles = HONORIFICS.filter((t) => t !== (gender === 'female' ? 'Mr' : 'Mrs'));
  return `${pick(random, titles)} ${name}`;
}

/** A name part lent by someone else: `owner` keeps a person from lending to themselves. */
export type LentName = { owner: string; name: string };

function borrow(name: string, owner: string, pool: readonly LentName[], salt: string): string | undefined {
  if (pool.length === 0) return undefined;
  const random = randomFor(name, salt);
  const present = new Set(wordsOfName(name).map(foldToken));
  for (let attempt = 0; attempt < 10; attempt++) {
    const lent = pick(random, pool);
    if (lent.owner !== owner && !present.has(foldToken(lent.name))) return lent.name;
  }
  return undefined;
}

export function withExtraGivenName(name: string, owner: string, pool: readonly LentName[]): string | undefined {
  const words = wordsOfName(name);
  const extra = words.length >= 2 ? borrow(name, owner, pool, 'extra-given') : undefined;
  if (!extra) return undefined;
  return [words[0], inStyleOf(words[0] as string, extra), ...words.slice(1)].join(' ');
}

export function withExtraNamePart(name: string, owner: string, pool: readonly LentName[]): string | undefined {
  const words = wordsOfName(name);
  if (words.length < 2 || !isArabicStyle(name)) return undefined;
  const extra = borrow(name, owner, pool, 'extra-part');
  if (!extra) return undefined;
  const part = inStyleOf(words.at(-1) as string, extra);
  const nasab = words.findIndex((w, i) => NASAB.has(foldToken(w)) && i + 1 < words.length);
  if (nasab >= 0) return [...words.slice(0, nasab + 2), words[nasab], part, ...words.slice(nasab + 2)].join(' ');
  const gaps = words.map((_, i) => i).filter((i) => i > 0 && !isParticle(words[i - 1] as string));
  if (gaps.length === 0) return undefined;
  const at = pick(randomFor(name, 'extra-part-at'), gaps);
  return [...words.slice(0, at), part, ...words.slice(at)].join(' ');
}

/**
 * Name parts of a list's people in Latin script, each with its owner, by list and sanctions
 * program: a name lent within one program comes from the same part of the world, as an extra name
 * a visitor gives would.
 */
const poolKey = (entity: ListEntity) => `${entity.list}:${entity.programs[0] ?? ''}`;

function givenNamePool(persons: readonly ListEntity[], of: (entity: ListEntity) => string | undefined): Map<string, LentName[]> {
  const pools = new Map<string, LentName[]>();
  for (const entity of persons) {
    const name = of(entity);
    if (name === undefined || !isLatinName(name)) continue;
    const pool = pools.get(poolKey(entity)) ?? [];
    pools.set(poolKey(entity), pool);
    for (const word of wordsOfName(name)) if (isLendableName(word)) pool.push({ owner: entityKey(entity), name: word });
  }
  return pools;
}

export function personAdditionVariants(persons: readonly ListEntity[]): ClassVariant[] {
  const typed = (entity: ListEntity) => {
    const primary = entity.names.find((n) => n.kind === 'primary')?.full;
    return primary && isLatinName(primary) ? unlistName(primary) : undefined;
  };
  const given = givenNamePool(persons, (entity) => {
    const primary = entity.names.find((n) => n.kind === 'primary');
    return primary?.given?.split(' ')[0] ?? (primary && unlistName(primary.full).split(' ')[0]);
  });
  const arabicParts = givenNamePool(persons, (entity) => {
    const name = typed(entity);
    return name && isArabicStyle(name) ? name : undefined;
  });
  const variants: [string, (name: string, entity: ListEntity) => string | undefined][] = [
    ['suffix or honorific', (name, entity) => withSuffixOrHonorific(name, entity.gender)],
    ['extra given name', (name, entity) => withExtraGivenName(name, entityKey(entity), given.get(poolKey(entity)) ?? [])],
    ['extra name part (long Arabic-style names)', (name, entity) => withExtraNamePart(name, entityKey(entity), arabicParts.get(poolKey(entity)) ?? [])],
  ];
  return variants.map(([variant, perturb]) => ({
    name: variant,
    cases: persons.flatMap((entity) => {
      const name = typed(entity);
      const query = name && perturb(name, entity);
      return query ? [findCase(entity, { name: query, kind: 'person' }, `listed: ${entity.names[0]?.full}`)] : [];
    }),
  }));
}
