/**
 * The score of one query name against one list name, with the token-by-token account of it.
 *
 * Tokens are paired greedily, best similarity first, each token used once, so word order never
 * matters ("PUTIN, Vladimir" = "Vladimir Putin"). Adjacent tokens may also pair as one word, which
 * absorbs spacing differences ("Abdul Rahman" = "Abdulrahman", "xi jin ping" = "Xi Jinping").
 *
 *   score = Σ similarity·w / (Σ w over pairs + 0.55·extra query + e·extra list + 1·min(extra query, extra list))
 *
 * with e = 0.25 for persons and 0.6 for organizations, vessels and aircraft.
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

const EXTRA_QUERY_WEIGHT = 0.55;
/**
 * A person's list entry often carries middle names the subject leaves out; an organization's extra
 * word is usually its distinctive one ("Trading S.A." is not "Rosneft Trading S.A.").
 */
const EXTRA_LIST_WEIGHT = { person: 0.25, other: 0.6 } as const;
const CONFLICT_WEIGHT = 1;
const PAIR_THRESHOLD = 0.7;

/**
 * One word, or two adjacent words read as one; `memo` remembers its similarity to list units.
 * `lineage` counts the bin/ibn/ben before the word: in SALMAN BIN MUHAMMAD, Salman is the man and
 * Muhammad his father, so the same two names the other way round are another man.
 */
type Unit = { from: number; to: number; keys: TokenKeys; weight: number; lineage: number; memo?: Map<TokenKeys, TokenSimilarity> };

/** A name ready to score: its tokens and its units. List names are prepared once, at index build. */
export type PreparedName = { tokens: readonly WeightedToken[]; units: readonly Unit[]; hasLineage: boolean; isPerson: boolean };

const LINEAGE_PARTICLES = new Set(['bin', 'ibn', 'ben', 'bint', 'binti']);
/** How much a pairing across generations (the man's name for his father's) is still worth. */
const CROSS_LINEAGE_FACTOR = 0.6;
/** A number on one name and not the other (Fund II, Brigade 44) is another entity more often than not. */
const NUMBER_MISMATCH_FACTOR = 0.9;

/** The word as written, for joining: a legal form joins by its letters (Siemens AG = SiemensAG). */
export const joinText = (t: Pick<WeightedToken, 'role' | 'text' | 'shown'>) => (t.role === 'legal_form' ? t.shown.replace(/ /g, '') : t.text);

/** Keys for a joined word, cached by the caller so equal words share one keys object. */
export type KeysOf = (text: string, template: Pick<TokenKeys, 'script' | 'role' | 'glyph'>, joined?: boolean) => TokenKeys;

export const joinable = (t: TokenKeys) => t.role !== 'connective' && t.role !== 'number';

/**
 * `orderKnown`: the words are in the order the person's names are given. An inverted name
 * (OFAC's "LAST, First") is not, and lineage (bin, ibn) is then not read from it.
 */
export function prepareName(tokens: readonly WeightedToken[], keysOf: KeysOf, options: { orderKnown: boolean; isPerson: boolean; memo?: boolean }): PreparedName {
  let lineage = 0;
  const lineages = tokens.map((t) => (LINEAGE_PARTICLES.has(t.text) ? lineage++ : lineage));
  const units: Unit[] = tokens.map((t, i) => ({ from: i, to: i, keys: keysOf(t.text, t), weight: t.weight, lineage: lineages[i] as number }));
  for (let i = 0; i + 1 < tokens.length; i++) {
    const a = tokens[i] as WeightedToken;
    const b = tokens[i + 1] as WeightedToken;
    if (!joinable(a) || !joinable(b) || (a.role === 'legal_form' && b.role === 'legal_form')) continue;
    const keys = keysOf(joinText(a) + joinText(b), { script: b.script, role: 'name' }, true);
    units.push({ from: i, to: i + 1, keys, weight: a.weight + b.weight, lineage: lineages[i] as number });
  }
  if (options.memo) for (const unit of units) unit.memo = new Map();
  return { tokens, units, hasLineage: options.orderKnown && lineage > 0, isPerson: options.isPerson };
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
  const lineageMatters = queryName.hasLineage && listName.hasLineage;
  for (const q of queryName.units) {
    for (const l of listName.units) {
      if (q.from !== q.to && l.from !== l.to) continue; // two joins pair as their single words
      const found = similarity(q, l);
      const how = found.how;
      const value = lineageMatters && q.lineage !== l.lineage ? found.similarity * CROSS_LINEAGE_FACTOR : found.similarity;
      if (value >= PAIR_THRESHOLD || (how === 'initial' && value > 0)) pairs.push({ q, l, similarity: value, how });
    }
  }
  // Best first; on a tie the pairing of single words beats a join.
  pairs.sort((a, b) => b.similarity - a.similarity || a.q.to - a.q.from + (a.l.to - a.l.from) - (b.q.to - b.q.from + (b.l.to - b.l.from)));

  const usedQuery = new Uint8Array(query.length);
  const usedList = new Uint8Array(list.length);
  const explained: TokenExplanation[] = explainTokens ? [] : NO_EXPLANATION;
  let matched = 0;
  let weightOfPairs = 0;
  let identityMatched = false;
  for (const pair of pairs) {
    if (usedQuery[pair.q.from] || usedQuery[pair.q.to] || usedList[pair.l.from] || usedList[pair.l.to]) continue;
    usedQuery.fill(1, pair.q.from, pair.q.to + 1);
    usedList.fill(1, pair.l.from, pair.l.to + 1);
    const weight = (pair.q.weight + pair.l.weight) / 2;
    matched += pair.similarity * weight;
    weightOfPairs += weight;
    identityMatched ||= identifying(pair.q.keys) && identifying(pair.l.keys);
    const how = pair.q.from !== pair.q.to || pair.l.from !== pair.l.to ? 'merged' : pair.how;
    if (explainTokens) explained.push({ query: shownOf(query, pair.q), list: shownOf(list, pair.l), how, similarity: round(pair.similarity), weight: round(weight) });
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

  // Words left over on both sides are not extras but a different name in the same place
  // (AL-TIKRITI where the subject is AL-DULAIMI): that overlap counts against the match in full.
  const conflict = Math.min(extraQuery, extraList);
  const extraListWeight = listName.isPerson ? EXTRA_LIST_WEIGHT.person : EXTRA_LIST_WEIGHT.other;
  const denominator = weightOfPairs + EXTRA_QUERY_WEIGHT * extraQuery + extraListWeight * extraList + CONFLICT_WEIGHT * conflict;
  const numbersDiffer = query.some((t, i) => !usedQuery[i] && t.role === 'number') || list.some((t, i) => !usedList[i] && t.role === 'number');
  const score = identityMatched && denominator > 0 ? (matched / denominator) * (numbersDiffer ? NUMBER_MISMATCH_FACTOR : 1) : 0;
  return { score, tokens: explained };
}

const NO_EXPLANATION: TokenExplanation[] = [];

const shownOf = (tokens: readonly WeightedToken[], unit: Unit) =>
  tokens
    .slice(unit.from, unit.to + 1)
    .map((t) => t.shown)
    .join(' ');

const round = (n: number) => Math.round(n * 1000) / 1000;
