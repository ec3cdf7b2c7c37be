/**
 * A name made ready to score (name-score.ts): its words weighed, the adjacent words that may be
 * read as one word joined, and the lineage of a person's name read. The index prepares each list
 * name once when it is built (index/name-index.ts) and each query name as it is screened.
 *
 * Its own file because the scoring's partial matches (partial-matches.ts) read the weighed words
 * too, and the scoring is built on them: declared with the scoring, the two would import each other.
 */
import type { TokenKeys, TokenSimilarity } from './token-similarity.ts';

export type WeightedToken = TokenKeys & { shown: string; weight: number };

/** A query's token from its keys, field by field in one order, so that all query tokens share one hidden class (see vocabulary.ts). */
export const weightedToken = ({ text, script, role, phonetic, skeleton, glyph }: TokenKeys, shown: string, weight: number): WeightedToken => ({
  text,
  script,
  role,
  phonetic,
  skeleton,
  glyph,
  shown,
  weight,
});

/**
 * A name ready to score. Its units are its words and, where two adjacent words may be read as one,
 * the pair (`joined[i]` holds the keys of words i and i+1 together), or three around a particle. A
 * unit's weight and place are read from the tokens, so a list name, prepared once at index build,
 * keeps a few arrays and nothing per unit.
 *
 * `lineage` says, word by word, whether it names the man (before the first bin/ibn/ben) or his
 * forebears (after it): in SALMAN BIN MUHAMMAD, Salman is the man and Muhammad his father, so the
 * same two names the other way round are another man. It is kept only for names that have such a
 * particle and are written in order.
 *
 * `memo` (query names only) remembers each unit's similarity to the list words it met.
 */
export type PreparedName = {
  tokens: readonly WeightedToken[];
  joined: readonly (TokenKeys | undefined)[];
  /** Words i to i + 2 read as one where the middle one is a particle (Abd al-Rahman = Abdulrahman, van der Bilt = Vanderbilt). */
  joinedThree: readonly (TokenKeys | undefined)[];
  lineage: readonly number[] | undefined;
  isPerson: boolean;
  /**
   * The weights carry the words' rarity on the lists (an index of a few names knows none: every
   * word weighs as rare there). Only then may a partial match lean on rarity (see rarityOfFound).
   */
  rarityKnown: boolean;
  memo: Map<TokenKeys, TokenSimilarity>[] | undefined;
};

const LINEAGE_PARTICLES = new Set(['bin', 'ibn', 'ben', 'bint', 'binti']);
const NO_JOINS: readonly (TokenKeys | undefined)[] = [];

/** The word as written, for joining: a legal form joins by its letters (Siemens AG = SiemensAG). */
export const joinText = (t: Pick<WeightedToken, 'role' | 'text' | 'shown'>) => (t.role === 'legal_form' ? t.shown.replace(/ /g, '') : t.text);

/** Keys for a joined word, cached by the caller so equal words share one keys object. */
export type KeysOf = (text: string, template: Pick<TokenKeys, 'script' | 'role' | 'glyph'>, joined?: boolean) => TokenKeys;

export const joinable = (t: TokenKeys) => t.role !== 'connective' && t.role !== 'number';

/**
 * `orderKnown`: the words are in the order the person's names are given. An inverted name
 * (OFAC's "LAST, First") is not, and lineage (bin, ibn) is then not read from it.
 */
export function prepareName(
  tokens: readonly WeightedToken[],
  keysOf: KeysOf,
  options: { orderKnown: boolean; isPerson: boolean; rarityKnown?: boolean; memo?: boolean },
): PreparedName {
  let joined: (TokenKeys | undefined)[] | undefined;
  let joinedThree: (TokenKeys | undefined)[] | undefined;
  for (let i = 0; i + 1 < tokens.length; i++) {
    const a = tokens[i] as WeightedToken;
    const b = tokens[i + 1] as WeightedToken;
    if (!joinable(a) || !joinable(b) || (a.role === 'legal_form' && b.role === 'legal_form')) continue;
    joined ??= new Array<TokenKeys | undefined>(tokens.length - 1).fill(undefined);
    joined[i] = keysOf(joinText(a) + joinText(b), { script: b.script, role: 'name' }, true);
    // Three words around a particle join in transliterations only: Arabic script writes the article
    // onto its word (عبد الرحمن), and an abjad skeleton of three words is too short a key to trust.
    const c = tokens[i + 2];
    const written = c && [a, b, c].every((t) => t.script !== 'abjad' && t.role !== 'legal_form');
    if (c && written && b.role === 'particle' && joinable(c)) {
      joinedThree ??= new Array<TokenKeys | undefined>(tokens.length - 2).fill(undefined);
      joinedThree[i] = keysOf(joinText(a) + joinText(b) + joinText(c), { script: c.script, role: 'name' }, true);
    }
  }
  // The man himself (0) or his forebears (1): SALMAN BIN MUHAMMAD is not MUHAMMAD BIN SALMAN, but
  // a grandfather's name given or left out does not move the father's. A particle that opens or
  // closes the name (bin Salman Mohammed) leads nowhere: the order is not the name's own.
  const particles = tokens.flatMap((t, i) => (LINEAGE_PARTICLES.has(t.text) ? [i] : []));
  const ordered = particles.length > 0 && particles.every((i) => i > 0 && i < tokens.length - 1);
  const lineage = tokens.map((_, i) => (i > (particles[0] ?? tokens.length) ? 1 : 0));
  const units = tokens.length + (joined ?? NO_JOINS).length + (joinedThree ?? NO_JOINS).length;
  return {
    tokens,
    joined: joined ?? NO_JOINS,
    joinedThree: joinedThree ?? NO_JOINS,
    lineage: options.orderKnown && ordered ? lineage : undefined,
    isPerson: options.isPerson,
    rarityKnown: options.rarityKnown === true,
    memo: options.memo ? Array.from({ length: units }, () => new Map()) : undefined,
  };
}

/**
 * Units are numbered words first (0 … n−1), then pairs (n + i joins words i and i + 1), then
 * threes (n + pairs + i joins words i to i + 2).
 */
export const unitCount = (name: PreparedName) => name.tokens.length + name.joined.length + name.joinedThree.length;
export function unitKeys(name: PreparedName, unit: number): TokenKeys | undefined {
  const pair = unit - name.tokens.length;
  if (pair < 0) return name.tokens[unit];
  return pair < name.joined.length ? name.joined[pair] : name.joinedThree[pair - name.joined.length];
}
export function unitFrom(name: PreparedName, unit: number): number {
  const pair = unit - name.tokens.length;
  if (pair < 0) return unit;
  return pair < name.joined.length ? pair : pair - name.joined.length;
}
export function unitTo(name: PreparedName, unit: number): number {
  const pair = unit - name.tokens.length;
  if (pair < 0) return unit;
  return pair < name.joined.length ? pair + 1 : pair - name.joined.length + 2;
}
