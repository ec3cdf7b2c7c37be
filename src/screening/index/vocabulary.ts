/**
 * Every distinct token on the loaded lists, once, with the keys that find it under another
 * spelling and how many list names use it (its rarity). Candidate generation looks tokens up
 * here, so its cost grows with the vocabulary (tens of thousands) rather than with the names.
 */
import { phoneticKeys, skeletonKey, type NameToken, ROLE_WEIGHT } from '../normalize/analyze-name.ts';
import type { TokenKeys } from '../match/token-similarity.ts';

/** A distinct token; it also serves as every occurrence's token where the words shown are its text. */
export type VocabEntry = TokenKeys & { id: number; documentFrequency: number; shown: string; weight: number };

const JOINED_CACHE_LIMIT = 200_000;

/** The single-character deletions of a word, the symmetric-delete key set for typo lookup. */
export function deletions(text: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i < text.length; i++) out.add(text.slice(0, i) + text.slice(i + 1));
  return [...out];
}

/** Words this long and longer are reachable by one deletion on either side (two edits). */
export const TYPO_LOOKUP_MIN_LENGTH = 4;

export class Vocabulary {
  readonly entries: VocabEntry[] = [];
  private readonly byKey = new Map<string, number>();
  private readonly byTextIndex = new Map<string, number[]>();
  private readonly joinedKeys = new Map<string, TokenKeys>();
  private nameCount = 0;

  intern(token: NameToken): VocabEntry {
    const key = keyOf(token);
    const known = this.byKey.get(key);
    if (known !== undefined) return this.entries[known] as VocabEntry;
    const entry: VocabEntry = { ...keysFor(token), id: this.entries.length, documentFrequency: 0, shown: token.text, weight: 0 };
    this.entries.push(entry);
    this.byKey.set(key, entry.id);
    const sameText = this.byTextIndex.get(token.text);
    if (sameText) sameText.push(entry.id);
    else this.byTextIndex.set(token.text, [entry.id]);
    return entry;
  }

  /** Called once per list name with its distinct tokens, so rarity counts names, not repetitions. */
  countName(ids: Iterable<number>) {
    this.nameCount += 1;
    for (const id of ids) (this.entries[id] as VocabEntry).documentFrequency += 1;
  }

  byText(text: string): readonly number[] {
    return this.byTextIndex.get(text) ?? [];
  }

  documentFrequencyOf(text: string): number {
    let total = 0;
    for (const id of this.byText(text)) total += (this.entries[id] as VocabEntry).documentFrequency;
    return total;
  }

  /**
   * How much a token weighs: its role's weight scaled by its rarity (normalized IDF, from 0.4 for
   * a word on every name to 1 for a word on one name or on none).
   */
  weightOf(token: Pick<TokenKeys, 'role' | 'text'>): number {
    const frequency = this.documentFrequencyOf(token.text);
    const rarity = frequency === 0 || this.nameCount < 2 ? 1 : Math.min(1, Math.log(this.nameCount / frequency) / Math.log(this.nameCount));
    // An initial says little whatever its frequency: a quarter of names share one.
    const initial = token.role === 'name' && token.text.length === 1 ? 0.3 : 1;
    return ROLE_WEIGHT[token.role] * initial * (0.4 + 0.6 * Math.max(0, rarity));
  }

  /** Sets every entry's weight once all names are counted. */
  weighAll() {
    for (const entry of this.entries) entry.weight = this.weightOf(entry);
  }

  /**
   * Keys for a word that may not be in the vocabulary (a joined pair, a query word), cached. A
   * joined pair is compared letter by letter or by skeleton (عبد الله = Abdullah), never by sound.
   */
  keysOf = (text: string, template: Pick<TokenKeys, 'script' | 'role' | 'glyph'>, joined = false): TokenKeys => {
    // Read the template's fields one by one: an occurrence token inherits them from its entry.
    const word = { text, script: template.script, role: template.role, ...(template.glyph && { glyph: template.glyph }) };
    const key = keyOf(word);
    const interned = this.byKey.get(key);
    if (interned !== undefined) return this.entries[interned] as VocabEntry;
    const cached = this.joinedKeys.get(key);
    if (cached) return cached;
    if (this.joinedKeys.size >= JOINED_CACHE_LIMIT) this.joinedKeys.clear();
    const keys: TokenKeys = joined ? { text, script: template.script, role: template.role, phonetic: [], skeleton: skeletonKey(text) } : keysFor(word);
    this.joinedKeys.set(key, keys);
    return keys;
  };
}

const keyOf = (t: Pick<TokenKeys, 'text' | 'script' | 'role' | 'glyph'>) => `${t.role}|${t.script}|${t.text}|${t.glyph ?? ''}`;

function keysFor({ text, script, role, glyph }: Pick<TokenKeys, 'text' | 'script' | 'role' | 'glyph'>): TokenKeys {
  return { text, script, role, phonetic: phoneticKeys({ text, script, role }), skeleton: skeletonKey(text), ...(glyph && { glyph }) };
}
