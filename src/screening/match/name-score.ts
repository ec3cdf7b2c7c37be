/**
 * The score of one query name against one list name, with the token-by-token account of it.
 *
 * Tokens are paired greedily, best similarity first, each token used once, so word order never
 * matters ("PUTIN, Vladimir" = "Vladimir Putin"). Adjacent tokens may also pair as one word, which
 * absorbs spacing differences ("Abdul Rahman" = "Abdulrahman", "xi jin ping" = "Xi Jinping").
 *
 *   score = Σ similarity·w  /  (Σ w over pairs + 1.0 · Σ w unmatched query + 0.3 · Σ w unmatched list)
 *
 * The asymmetry is deliberate: a list name usually carries more names than a visitor gives
 * ("John Smith" against "John Michael Smith" stays likely), while a name the subject has and the
 * list entry lacks is evidence of a different person. Weights combine the token's role (a legal
 * form or particle weighs little) with its rarity on the lists (IDF), so "Vekselberg" outweighs
 * "Mohammed". A match made only of legal forms, particles and connectives scores 0.
 */
import type { TokenExplanation } from '../match-types.ts';
import { tokenSimilarity, type TokenKeys, type TokenSimilarity } from './token-similarity.ts';

export type WeightedToken = TokenKeys & { shown: string; weight: number };

export type NameScore = { score: number; tokens: TokenExplanation[] };

const EXTRA_QUERY_WEIGHT = 1;
const EXTRA_LIST_WEIGHT = 0.3;
const PAIR_THRESHOLD = 0.7;

/** One word, or two adjacent words read as one; `memo` remembers its similarity to list units. */
type Unit = { from: number; to: number; keys: TokenKeys; shown: string; weight: number; memo?: Map<TokenKeys, TokenSimilarity> };

/** A name ready to score: its tokens and its units. List names are prepared once, at index build. */
export type PreparedName = { tokens: readonly WeightedToken[]; units: readonly Unit[] };

/** Keys for a joined word, cached by the caller so equal words share one keys object. */
export type KeysOf = (text: string, template: Pick<TokenKeys, 'script' | 'role'>) => TokenKeys;

const joinable = (t: TokenKeys) => (t.role === 'name' || t.role === 'particle') && t.script !== 'abjad';

export function prepareName(tokens: readonly WeightedToken[], keysOf: KeysOf, withMemo = false): PreparedName {
  const units: Unit[] = tokens.map((t, i) => ({ from: i, to: i, keys: keysOf(t.text, t), shown: t.shown, weight: t.weight }));
  for (let i = 0; i + 1 < tokens.length; i++) {
    const a = tokens[i] as WeightedToken;
    const b = tokens[i + 1] as WeightedToken;
    if (!joinable(a) || !joinable(b)) continue;
    units.push({ from: i, to: i + 1, keys: keysOf(a.text + b.text, { script: b.script, role: 'name' }), shown: `${a.shown} ${b.shown}`, weight: a.weight + b.weight });
  }
  if (withMemo) for (const unit of units) unit.memo = new Map();
  return { tokens, units };
}

const identifying = (t: TokenKeys) => t.role === 'name' || t.role === 'number';

function similarity(q: Unit, l: Unit): TokenSimilarity {
  const known = q.memo?.get(l.keys);
  if (known) return known;
  const computed = tokenSimilarity(q.keys, l.keys);
  q.memo?.set(l.keys, computed);
  return computed;
}

/** `explainTokens` false skips the account, for ranking candidates before the winners are explained. */
export function scoreNames(queryName: PreparedName, listName: PreparedName, explainTokens = true): NameScore {
  const { tokens: query } = queryName;
  const { tokens: list } = listName;
  const pairs: { q: Unit; l: Unit; similarity: number; how: TokenExplanation['how'] }[] = [];
  for (const q of queryName.units) {
    for (const l of listName.units) {
      if (q.from !== q.to && l.from !== l.to) continue; // two joins pair as their single words
      const { similarity: value, how } = similarity(q, l);
      if (value >= PAIR_THRESHOLD || (how === 'initial' && value > 0)) pairs.push({ q, l, similarity: value, how });
    }
  }
  // Best first; on a tie the pairing of single words beats a join.
  pairs.sort((a, b) => b.similarity - a.similarity || a.q.to - a.q.from + (a.l.to - a.l.from) - (b.q.to - b.q.from + (b.l.to - b.l.from)));

  const usedQuery = new Uint8Array(query.length);
  const usedList = new Uint8Array(list.length);
  const explained: TokenExplanation[] = [];
  let matched = 0;
  let weightOfPairs = 0;
  let identityMatched = false;
  for (const pair of pairs) {
    if (usedQuery.subarray(pair.q.from, pair.q.to + 1).some(Boolean) || usedList.subarray(pair.l.from, pair.l.to + 1).some(Boolean)) continue;
    usedQuery.fill(1, pair.q.from, pair.q.to + 1);
    usedList.fill(1, pair.l.from, pair.l.to + 1);
    const weight = (pair.q.weight + pair.l.weight) / 2;
    matched += pair.similarity * weight;
    weightOfPairs += weight;
    identityMatched ||= identifying(pair.q.keys) && identifying(pair.l.keys);
    const how = pair.q.from !== pair.q.to || pair.l.from !== pair.l.to ? 'merged' : pair.how;
    if (explainTokens) explained.push({ query: pair.q.shown, list: pair.l.shown, how, similarity: round(pair.similarity), weight: round(weight) });
  }

  let extraQuery = 0;
  query.forEach((t, i) => {
    if (usedQuery[i]) return;
    extraQuery += t.weight;
    if (explainTokens) explained.push({ query: t.shown, how: 'unmatched_query', similarity: 0, weight: round(t.weight) });
  });
  let extraList = 0;
  list.forEach((t, i) => {
    if (usedList[i]) return;
    extraList += t.weight;
    if (explainTokens) explained.push({ list: t.shown, how: 'unmatched_list', similarity: 0, weight: round(t.weight) });
  });

  const denominator = weightOfPairs + EXTRA_QUERY_WEIGHT * extraQuery + EXTRA_LIST_WEIGHT * extraList;
  const score = identityMatched && denominator > 0 ? matched / denominator : 0;
  return { score, tokens: explained };
}

const round = (n: number) => Math.round(n * 1000) / 1000;
