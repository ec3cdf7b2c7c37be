/**
 * Set (f), everyday names of organizations: what people call a company when the list holds its
 * long legal name.
 *
 * - listed short form: the lists' own short forms. An organization whose strong alias is, after
 *   designations are taken out, a strict subset of its primary name's words (or the other way
 *   round) gives a pair; the short name, and every name of the entity with the same core, is held
 *   out of the index and screened.
 * - designations dropped: the primary name with every legal-form and designation phrase taken out,
 *   when a distinctive word is left.
 * - industry word swapped: a brand-style form, one industry word traded for its other form
 *   (Airlines ↔ Air, Trading ↔ Trade …), as the company's own marketing writes it.
 */
import type { ListEntity } from '../../../src/screening/model.ts';
import { pick, randomFor } from '../perturb.ts';
import { type ClassCase, type ClassVariant, findCase } from './class-case.ts';
import { coreKey, hasDistinctive, type OrgVocabulary, withoutDesignations } from './org-vocabulary.ts';
import { inStyleOf, isPlainName, joinWords, type Word, wordsOf } from './words.ts';

/** Industry words and their other forms; Bank and the like have none and are left alone. */
const INDUSTRY_FORMS = [
  ['airlines', 'airline', 'airways', 'air'],
  ['shipping', 'ship'],
  ['trading', 'trade'],
  ['industries', 'industry', 'industrial'],
  ['petroleum', 'petrol'],
  ['technologies', 'technology', 'tech'],
  ['electronics', 'electronic'],
  ['systems', 'system'],
  ['chemicals', 'chemical'],
  ['petrochemicals', 'petrochemical'],
  ['services', 'service'],
  ['investments', 'investment'],
  ['communications', 'communication'],
  ['motors', 'motor'],
  ['metals', 'metal'],
  ['minerals', 'mineral'],
  ['products', 'product'],
  ['resources', 'resource'],
  ['solutions', 'solution'],
  ['pharmaceuticals', 'pharmaceutical', 'pharma'],
  ['shipyards', 'shipyard'],
];
const OTHER_FORMS = new Map(INDUSTRY_FORMS.flatMap((group) => group.map((word) => [word, group.filter((w) => w !== word)] as const)));

/** The entity's first strict-subset pair of primary name and strong alias, short form first. */
export function listedShortForm(vocabulary: OrgVocabulary, entity: ListEntity): { short: string; long: string } | undefined {
  const primary = entity.names.find((n) => n.kind === 'primary');
  if (!primary || !isPlainName(primary.full)) return undefined;
  const coreOf = (name: string) => coreKey(vocabulary, wordsOf(name)).split(' ').filter(Boolean);
  const primaryCore = coreOf(primary.full);
  for (const alias of entity.names) {
    if (alias.kind !== 'strong_alias' || !isPlainName(alias.full)) continue;
    const aliasCore = coreOf(alias.full);
    for (const [short, long, shortCore, longCore] of [
      [alias.full, primary.full, aliasCore, primaryCore],
      [primary.full, alias.full, primaryCore, aliasCore],
    ] as const) {
      const longSet = new Set(longCore);
      const strictSubset = shortCore.length > 0 && shortCore.length < longSet.size && shortCore.every((t) => longSet.has(t));
      if (strictSubset && shortCore.some((t) => vocabulary.isDistinctive(t))) return { short, long };
    }
  }
  return undefined;
}

/** The primary name with its designations taken out, or undefined when nothing was or nothing distinctive is left. */
export function designationsDropped(vocabulary: OrgVocabulary, name: string): string | undefined {
  const words = wordsOf(name);
  const kept = withoutDesignations(vocabulary, words);
  if (kept.length === words.length || !hasDistinctive(vocabulary, kept)) return undefined;
  return joinWords(kept);
}

/** One industry word swapped for another of its forms, in the everyday name (designations dropped). */
export function industryWordSwapped(vocabulary: OrgVocabulary, name: string): string | undefined {
  const words = withoutDesignations(vocabulary, wordsOf(name));
  if (!hasDistinctive(vocabulary, words)) return undefined;
  const swappable = words.map((w, i) => [w, i] as const).filter(([w]) => OTHER_FORMS.has(w.token));
  if (swappable.length === 0) return undefined;
  const random = randomFor(name, 'industry');
  const [word, at] = pick(random, swappable);
  const replacement = inStyleOf(word.text, pick(random, OTHER_FORMS.get(word.token) as string[]));
  return joinWords(words.map((w, i): Word => (i === at ? { text: replacement, token: replacement.toLowerCase() } : w)));
}

export function everydayNameVariants(vocabulary: OrgVocabulary, organizations: readonly ListEntity[]): ClassVariant[] {
  const listed: ClassCase[] = [];
  const dropped: ClassCase[] = [];
  const swapped: ClassCase[] = [];
  for (const entity of organizations) {
    const pair = listedShortForm(vocabulary, entity);
    if (pair) {
      const shortCore = coreKey(vocabulary, wordsOf(pair.short));
      listed.push({
        ...findCase(entity, { name: pair.short, kind: 'organization' }, `listed: ${pair.long}`),
        holdOut: (name) => coreKey(vocabulary, wordsOf(name.full)) === shortCore,
      });
    }
    const primary = entity.names.find((n) => n.kind === 'primary')?.full;
    if (!primary || !isPlainName(primary)) continue;
    const everyday = designationsDropped(vocabulary, primary);
    if (everyday) dropped.push(findCase(entity, { name: everyday, kind: 'organization' }, `listed: ${primary}`));
    const brand = industryWordSwapped(vocabulary, primary);
    if (brand) swapped.push(findCase(entity, { name: brand, kind: 'organization' }, `listed: ${primary}`));
  }
  return [
    { name: 'everyday name: listed short form, held out', cases: listed },
    { name: 'everyday name: designations dropped', cases: dropped },
    { name: 'everyday name: industry word swapped (Air ↔ Airlines)', cases: swapped },
  ];
}
