/**
 * Partial matches that lean on how rare the words found are: an organization's everyday name
 * against its full legal name, and a person's given names the listing does not carry. A word's
 * rarity on the lists is recovered from its weight (vocabulary.ts: role weight × (0.4 + 0.6 ×
 * rarity)), from 0 (a word on every name) to 1 (a word on one).
 *
 * - The everyday name of an organization is its distinctive words without the rest of its legal
 *   name (Acme for ACME HOLDING GROUP OJSC). When every word the subject gives is found on a
 *   longer list name, the list's other words count against the match less the rarer the words
 *   found are; common words found ("International Trading") earn nothing, and the extra words
 *   weigh in full. A word on a handful of list names makes it a strong partial match.
 * - A person's extra given name weighs less the rarer the names found are (a rare family name and
 *   given name found, the extra name is one the list left out; WANG Chen found in a three-part name
 *   is as likely someone else).
 *
 * Both use the square of the rarity, so only words rare on the lists earn much.
 */

import { ROLE_WEIGHT } from '../normalize/analyze-name.ts';
import type { WeightedToken } from './prepared-name.ts';
import type { TokenKeys } from './token-similarity.ts';

/** Pairs this similar count as found for these readings. */
export const NEAR_EXACT = 0.9;
/** How much of its weight a person's extra given name is forgiven when the names found are rare. */
const EXTRA_GIVEN_NAME_DISCOUNT = 0.6;
/**
 * Where the index cannot say how rare the names found are (a few names), they weigh as rare, as
 * every word of such an index does (vocabulary.ts): only the gentler reading of a person's extra
 * given names takes this; an organization's everyday name needs rarity known.
 */
const RARITY_UNKNOWN = 1;
/**
 * Words below this rarity are common on the lists (Global, Solutions, Trading: on a hundred names
 * and more); an organization's everyday name made of them earns no forgiveness.
 */
export const COMMON_RARITY = 0.5;
/** How much of an organization's extra list words a query of rare words found on it forgives. */
const SUBSET_DISCOUNT = 0.8;
/**
 * A word this rare is distinctive: on 58,785 list names, 0.8 is a word on at most 9 of them
 * (rarity = log(names / frequency) / log(names), see vocabulary.ts).
 */
const DISTINCTIVE_RARITY = 0.8;
/** An everyday name found whole on a longer listed name: above the default threshold 0.8, and low priority (below 0.88). */
const EVERYDAY_NAME_SCORE = 0.85;

export const identifying = (t: TokenKeys) => t.role === 'name' || t.role === 'number';

/** A token's rarity on the lists; 0 for words that do not identify. */
export function rarityOf(t: WeightedToken): number {
  if (!identifying(t)) return 0;
  return Math.min(1, Math.max(0, (t.weight / ROLE_WEIGHT[t.role] - 0.4) / 0.6));
}
export const rarityWeight = (t: WeightedToken): number => t.weight * rarityOf(t);

/** The rarity of the query's words found near-exactly, weight-averaged over its identifying words found (`foundRarity`: their rarityWeight summed). */
export function rarityOfFound(query: readonly WeightedToken[], used: Uint8Array, foundRarity: number): number {
  let weight = 0;
  for (let i = 0; i < query.length; i++) if (used[i] && identifying(query[i] as WeightedToken)) weight += (query[i] as WeightedToken).weight;
  return weight === 0 ? 0 : Math.min(1, foundRarity / weight);
}

/** The share of the usual weight a person's extra given name carries; `rarity` undefined where the index cannot tell. */
export function extraGivenNameWeight(rarity: number | undefined): number {
  const r = rarity ?? RARITY_UNKNOWN;
  return 1 - EXTRA_GIVEN_NAME_DISCOUNT * r * r;
}

/** The share of the usual weight an organization's listed words beyond an everyday name carry. */
export function organizationExtraWeight(rarity: number | undefined): number {
  const beyondCommon = Math.max(0, ((rarity ?? 0) - COMMON_RARITY) / (1 - COMMON_RARITY));
  return 1 - SUBSET_DISCOUNT * beyondCommon * beyondCommon;
}

/** The strong partial match an everyday name whose rarest word is distinctive makes; undefined when it is not. */
export function everydayNameScore(rarestFound: number, numberFactor: number): number | undefined {
  return rarestFound >= DISTINCTIVE_RARITY ? EVERYDAY_NAME_SCORE * numberFactor : undefined;
}

/** How many identifying words of a name are paired. */
export function countFound(used: Uint8Array, tokens: readonly WeightedToken[]): number {
  let found = 0;
  for (let i = 0; i < tokens.length; i++) if (used[i] && identifying(tokens[i] as WeightedToken)) found += 1;
  return found;
}

export const NO_SPAN: readonly [number, number] = [0, 0];

/** The first and last words paired. */
export function foundSpan(used: Uint8Array, length: number): [number, number] {
  let first = -1;
  let last = -1;
  for (let i = 0; i < length; i++) {
    if (!used[i]) continue;
    if (first < 0) first = i;
    last = i;
  }
  return [first, last];
}
