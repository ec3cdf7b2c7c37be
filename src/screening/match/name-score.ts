/**
 * The score of one query name against one list name, with the token-by-token account of it.
 *
 * Tokens are paired greedily, best similarity first, each token used once, so word order never
 * matters ("PUTIN, Vladimir" = "Vladimir Putin"). Adjacent tokens may also pair as one word, which
 * absorbs spacing differences ("Abdul Rahman" = "Abdulrahman", "xi jin ping" = "Xi Jinping"), and
 * so may three around a particle ("Abd al-Rahman" = "Abdulrahman").
 *
 *   score = n · Σ similarity·w / (Σ w over pairs + 0.55·extra query + e·extra list + 1·min(extra query, extra list))
 *
 * with e = 0.25 for persons and 0.6 for organizations, vessels and aircraft, and n = 0.9 when a
 * number is on one name and not the other or differs (else 1).
 *
 * The asymmetry is deliberate: a list name usually carries more names than a visitor gives
 * ("John Smith" against "John Michael Smith" stays likely), while a name the subject has and the
 * list entry lacks is evidence of a different person. Weights combine the token's role (a legal
 * form or particle weighs little) with its rarity on the lists (IDF), so "Vekselberg" outweighs
 * "Mohammed". A match made only of legal forms, particles and connectives scores 0.
 *
 * Two partial matches weigh their extras by the rarity of the words found (partial-matches.ts): a
 * person's given names the listing does not carry (between names found, or once every listed name
 * is found) count less than 0.55, and an organization's listed words beyond every word the subject
 * gave count less than e; an everyday name with a distinctive word scores 0.85 at least.
 *
 * Both names come prepared (prepared-name.ts): their words weighed, adjacent words joined.
 */
import type { TokenExplanation } from '../match-types.ts';
import {
  countFound,
  everydayNameScore,
  extraGivenNameWeight,
  foundSpan,
  identifying,
  NEAR_EXACT,
  NO_SPAN,
  organizationExtraWeight,
  rarityOf,
  rarityOfFound,
  rarityWeight,
} from './partial-matches.ts';
import { type PreparedName, unitCount, unitFrom, unitKeys, unitTo, type WeightedToken } from './prepared-name.ts';
import { type TokenKeys, type TokenSimilarity, tokenSimilarity } from './token-similarity.ts';

/**
 * `numberFactor`: what a number on one name and not the other did to the score (1 when none).
 * `queryCovered`, `listCovered`: every identifying word of that side is paired (none left over),
 * for the caller to judge a match between a whole name and a part of one (see screening-index.ts).
 * `everydayName`: the score is the everyday-name floor (see scoreNames), for the explanation.
 */
export type NameScore = {
  score: number;
  tokens: TokenExplanation[];
  numberFactor: number;
  queryCovered: boolean;
  listCovered: boolean;
  everydayName: boolean;
  /** The rarity of the rarest query word found near-exactly (0 when the index cannot tell). */
  rarestFound: number;
};

const EXTRA_QUERY_WEIGHT = 0.55;
/**
 * A person's list entry often carries middle names the subject leaves out; an organization's extra
 * word is usually its distinctive one ("Trading S.A." is not "Rosneft Trading S.A.").
 */
const EXTRA_LIST_WEIGHT = { person: 0.25, other: 0.6 } as const;
const CONFLICT_WEIGHT = 1;
const PAIR_THRESHOLD = 0.7;

/** How much a pairing across generations (the man's name for his father's) is still worth. */
const CROSS_LINEAGE_FACTOR = 0.6;
/**
 * A number on one name and not the other (Fund II, Brigade 44) is another entity more often than
 * not. Two names alike but for the number in the same place (Fund VII, Fund VIII; a fishing fleet's
 * FU YUAN YU 7621 and 7876) are siblings a screener must see: the differing numbers cost this
 * factor alone, not a missing word on each side.
 */
const NUMBER_MISMATCH_FACTOR = 0.9;

function unitWeight(name: PreparedName, unit: number): number {
  let weight = 0;
  for (let i = unitFrom(name, unit); i <= unitTo(name, unit); i++) weight += (name.tokens[i] as WeightedToken).weight;
  return weight;
}

function similarity(query: PreparedName, unit: number, q: TokenKeys, l: TokenKeys): TokenSimilarity {
  const memo = query.memo?.[unit];
  const known = memo?.get(l);
  if (known) return known;
  const computed = tokenSimilarity(q, l);
  memo?.set(l, computed);
  return computed;
}

type Pair = { qFrom: number; qTo: number; lFrom: number; lTo: number; weight: number; identifies: boolean; similarity: number; how: TokenExplanation['how'] };

/** `explainTokens` false skips the account, for ranking candidates before the winners are explained. */
export function scoreNames(queryName: PreparedName, listName: PreparedName, explainTokens = true): NameScore {
  const { tokens: query } = queryName;
  const { tokens: list } = listName;
  const pairs: Pair[] = [];
  const lineageMatters = queryName.lineage !== undefined && listName.lineage !== undefined;
  const queryUnits = unitCount(queryName);
  const listUnits = unitCount(listName);
  for (let qu = 0; qu < queryUnits; qu++) {
    const q = unitKeys(queryName, qu);
    if (!q) continue;
    const qJoin = qu >= query.length;
    for (let lu = 0; lu < listUnits; lu++) {
      const l = unitKeys(listName, lu);
      if (!l || (qJoin && lu >= list.length)) continue; // two joins pair as their single words
      const found = similarity(queryName, qu, q, l);
      const how = found.how;
      const qFrom = unitFrom(queryName, qu);
      const lFrom = unitFrom(listName, lu);
      const crossesLineage = lineageMatters && queryName.lineage?.[qFrom] !== listName.lineage?.[lFrom];
      const value = crossesLineage ? found.similarity * CROSS_LINEAGE_FACTOR : found.similarity;
      if (value >= PAIR_THRESHOLD || (how === 'initial' && value > 0)) {
        const weight = (unitWeight(queryName, qu) + unitWeight(listName, lu)) / 2;
        pairs.push({
          qFrom,
          qTo: unitTo(queryName, qu),
          lFrom,
          lTo: unitTo(listName, lu),
          weight,
          identifies: identifying(q) && identifying(l),
          similarity: value,
          how,
        });
      }
    }
  }
  pairs.sort(bestPairFirst);

  const usedQuery = usedFlags(0, query.length);
  const usedList = usedFlags(1, list.length);
  const explained: TokenExplanation[] = explainTokens ? [] : NO_EXPLANATION;
  let matched = 0;
  let weightOfPairs = 0;
  let identityWeight = 0;
  // The rarity-weighted sum of the query's words found near-exactly (see rarityOfFound).
  let foundRarity = 0;
  let rarestFound = 0;
  for (const pair of pairs) {
    if (usedQuery[pair.qFrom] || usedQuery[pair.qTo] || usedList[pair.lFrom] || usedList[pair.lTo]) continue;
    usedQuery.fill(1, pair.qFrom, pair.qTo + 1);
    usedList.fill(1, pair.lFrom, pair.lTo + 1);
    matched += pair.similarity * pair.weight;
    weightOfPairs += pair.weight;
    if (pair.identifies) identityWeight += pair.weight;
    if (pair.similarity >= NEAR_EXACT) {
      for (let q = pair.qFrom; q <= pair.qTo; q++) {
        foundRarity += rarityWeight(query[q] as WeightedToken);
        rarestFound = Math.max(rarestFound, rarityOf(query[q] as WeightedToken));
      }
    }
    const how = pair.qFrom !== pair.qTo || pair.lFrom !== pair.lTo ? 'merged' : pair.how;
    if (explainTokens) {
      explained.push({
        query: shownOf(query, pair.qFrom, pair.qTo),
        list: shownOf(list, pair.lFrom, pair.lTo),
        how,
        similarity: round(pair.similarity),
        weight: round(pair.weight),
      });
    }
  }
  // Numbers left on both sides are the same place numbered differently: paired off, in order, as
  // neither matched nor extra (their weight in the average is 0; the factor below accounts for
  // them). Only on a name the matched words identify without its number: where they weigh less
  // (RA-85554, an aircraft's registration), the number is the identity, and another is another craft.
  const numbersDiffer = nextNumber(query, usedQuery, 0) < query.length || nextNumber(list, usedList, 0) < list.length;
  let siblingWeight = 0;
  for (
    let q = nextNumber(query, usedQuery, 0), l = nextNumber(list, usedList, 0);
    q < query.length && l < list.length;
    q = nextNumber(query, usedQuery, q + 1), l = nextNumber(list, usedList, l + 1)
  ) {
    siblingWeight += ((query[q] as WeightedToken).weight + (list[l] as WeightedToken).weight) / 2;
  }
  if (siblingWeight > 0 && identityWeight >= siblingWeight) {
    for (
      let q = nextNumber(query, usedQuery, 0), l = nextNumber(list, usedList, 0);
      q < query.length && l < list.length;
      q = nextNumber(query, usedQuery, q + 1), l = nextNumber(list, usedList, l + 1)
    ) {
      usedQuery[q] = 1;
      usedList[l] = 1;
      if (explainTokens) {
        explained.push({ query: (query[q] as WeightedToken).shown, how: 'unmatched_query', similarity: 0, weight: 0 });
        explained.push({ list: (list[l] as WeightedToken).shown, how: 'unmatched_list', similarity: 0, weight: 0 });
      }
    }
  }

  // The list's leftovers are counted first (the query's depend on them) and told after the query's.
  let extraList = 0;
  let listCovered = true;
  const listLeftovers: TokenExplanation[] = explainTokens ? [] : NO_EXPLANATION;
  for (let i = 0; i < list.length; i++) {
    const t = list[i] as WeightedToken;
    if (usedList[i]) continue;
    extraList += t.weight;
    if (identifying(t)) listCovered = false;
    if (explainTokens) listLeftovers.push({ list: t.shown, how: 'unmatched_list', similarity: 0, weight: round(t.weight) });
  }

  // A name the subject gives that the listing does not carry is a given name the listing leaves
  // out (long Arabic names, a second given name) when it stands between names the listing has, or
  // when every name of the listing is found: it weighs less than a name in place of another.
  const [firstFound, lastFound] = queryName.isPerson ? foundSpan(usedQuery, query.length) : NO_SPAN;
  const listingFound = queryName.isPerson && listCovered && countFound(usedList, list) >= 2;
  const rarity = queryName.rarityKnown ? rarityOfFound(query, usedQuery, foundRarity) : undefined;
  const givenNameWeight = EXTRA_QUERY_WEIGHT * extraGivenNameWeight(rarity);
  let extraQuery = 0;
  let extraQueryCost = 0;
  let identifyingLeft = false;
  for (let i = 0; i < query.length; i++) {
    const t = query[i] as WeightedToken;
    if (usedQuery[i]) continue;
    extraQuery += t.weight;
    // A syllable (Han, Hangul) is part of a given name, not a given name of its own.
    const givenName = t.script !== 'han' && (listingFound || (i > firstFound && i < lastFound));
    extraQueryCost += t.weight * (givenName ? givenNameWeight : EXTRA_QUERY_WEIGHT);
    if (identifying(t)) identifyingLeft = true;
    if (explainTokens) explained.push({ query: t.shown, how: 'unmatched_query', similarity: 0, weight: round(t.weight) });
  }
  if (explainTokens) explained.push(...listLeftovers);

  // Words left over on both sides are not extras but a different name in the same place
  // (AL-TIKRITI where the subject is AL-DULAIMI): that overlap counts against the match in full.
  const conflict = Math.min(extraQuery, extraList);
  const extraListWeight = listName.isPerson ? EXTRA_LIST_WEIGHT.person : EXTRA_LIST_WEIGHT.other * (identifyingLeft ? 1 : organizationExtraWeight(rarity));
  const denominator = weightOfPairs + extraQueryCost + extraListWeight * extraList + CONFLICT_WEIGHT * conflict;
  const numberFactor = numbersDiffer ? NUMBER_MISMATCH_FACTOR : 1;
  const weighed = identityWeight > 0 && denominator > 0 ? (matched / denominator) * numberFactor : 0;
  const everyday = listName.isPerson || identifyingLeft || !queryName.rarityKnown ? undefined : everydayNameScore(rarestFound, numberFactor);
  const everydayName = everyday !== undefined && weighed < everyday;
  const score = everydayName ? everyday : weighed;
  return {
    score,
    tokens: explained,
    numberFactor,
    queryCovered: !identifyingLeft,
    listCovered,
    everydayName,
    rarestFound: queryName.rarityKnown ? rarestFound : 0,
  };
}

const NO_EXPLANATION: TokenExplanation[] = [];

/** Best first; on a tie the pairing of single words beats a join. */
const bestPairFirst = (a: Pair, b: Pair) => b.similarity - a.similarity || a.qTo - a.qFrom + (a.lTo - a.lFrom) - (b.qTo - b.qFrom + (b.lTo - b.lFrom));

/**
 * Which words are paired, one array per side reused by every call (scoring is synchronous): a
 * query scores dozens of list names, and a typed array allocated for each would feed the collector.
 */
const USED: Uint8Array[] = [new Uint8Array(64), new Uint8Array(64)];
function usedFlags(side: 0 | 1, length: number): Uint8Array {
  if ((USED[side] as Uint8Array).length < length) USED[side] = new Uint8Array(length * 2);
  const flags = USED[side] as Uint8Array;
  flags.fill(0, 0, length);
  return flags;
}

/** The first number at or after `from` not yet paired. */
function nextNumber(tokens: readonly WeightedToken[], used: Uint8Array, from: number): number {
  let i = from;
  while (i < tokens.length && (used[i] || (tokens[i] as WeightedToken).role !== 'number')) i++;
  return i;
}

const shownOf = (tokens: readonly WeightedToken[], from: number, to: number) =>
  tokens
    .slice(from, to + 1)
    .map((t) => t.shown)
    .join(' ');

const round = (n: number) => Math.round(n * 1000) / 1000;
