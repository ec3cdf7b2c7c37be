/**
 * Every distinct token on the loaded lists, once, with the keys that find it under another
 * spelling and how many list names use it (its rarity). Candidate generation looks tokens up
 * here, so its cost grows with the vocabulary (tens of thousands) rather than with the names.
 */
import { detachedString } from '../detached-string.ts';
import type { KeysOf } from '../match/prepared-name.ts';
import type { TokenKeys } from '../match/token-similarity.ts';
import { type NameToken, phoneticKeys, ROLE_WEIGHT, skeletonKey } from '../normalize/analyze-name.ts';
import type { Script } from '../normalize/fold.ts';
import type { Steps } from '../steps.ts';

/** A distinct token; it also serves as every occurrence's token where the words shown are its text. */
export type VocabEntry = TokenKeys & { id: number; documentFrequency: number; shown: string; weight: number };

const QUERY_KEYS_LIMIT = 50_000;
const RARITY_MIN_NAMES = 50;

/**
 * How many names each word is on, and how many names were counted: what a word's rarity is read
 * from. An index over a few entries (an organization's watchlist) reads it from a larger index's
 * (the public lists'), so that a word weighs the same in both and a name scores the same whichever
 * index holds it.
 */
export type RarityTable = {
  readonly nameCount: number;
  /** Word → how many names it is on; plain data, so that a table crosses threads by structured clone. */
  readonly counts: ReadonlyMap<string, number>;
};

/** How many names of a table `text` is on. */
export const frequencyOf = (table: RarityTable, text: string): number => table.counts.get(text) ?? 0;

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
  private readonly byTextIndex = new Map<string, number[]>();
  /** Words joined from two adjacent list words, by script: kept for the index's lifetime. */
  private readonly joinedOnLists = new Map<Script, Map<string, TokenKeys>>();
  /** Query words not on the lists, and their joins: a bounded cache. */
  private readonly queryKeys = new Map<string, TokenKeys>();
  private nameCount = 0;

  /** `rarity`: read words' rarity there instead of from the names this vocabulary counts. */
  constructor(private readonly rarity?: RarityTable) {}

  intern(token: NameToken): VocabEntry {
    const known = this.find(token);
    if (known) return known;
    const { text, script, role, phonetic, skeleton, glyph } = keysFor(token);
    // Every field written out, in one order: see keysFor.
    const entry: VocabEntry = { text, script, role, phonetic, skeleton, glyph, id: this.entries.length, documentFrequency: 0, shown: token.text, weight: 0 };
    this.entries.push(entry);
    const sameText = this.byTextIndex.get(token.text);
    if (sameText) sameText.push(entry.id);
    else this.byTextIndex.set(token.text, [entry.id]);
    return entry;
  }

  /** The entry for this word read this way (same text, role, script and glyph), if the lists have it. */
  private find(word: Pick<TokenKeys, 'text' | 'script' | 'role' | 'glyph'>): VocabEntry | undefined {
    for (const id of this.byText(word.text)) {
      const entry = this.entries[id] as VocabEntry;
      if (entry.role === word.role && entry.script === word.script && entry.glyph === word.glyph) return entry;
    }
    return undefined;
  }

  /** Called once per list name with its distinct tokens, so rarity counts names, not repetitions. */
  countName(ids: Iterable<number>) {
    this.nameCount += 1;
    for (const id of ids) (this.entries[id] as VocabEntry).documentFrequency += 1;
  }

  /** Enough names counted for a word's frequency to say how rare it is (an index of a handful of names cannot). */
  get rarityKnown(): boolean {
    return (this.rarity?.nameCount ?? this.nameCount) >= RARITY_MIN_NAMES;
  }

  /** The rarity this vocabulary weighs by, as a table of its own: a copy of its counts (not the vocabulary), or the table it was given. */
  rarityTable(): RarityTable {
    if (this.rarity) return this.rarity;
    const counts = new Map<string, number>();
    for (const entry of this.entries) counts.set(entry.text, (counts.get(entry.text) ?? 0) + entry.documentFrequency);
    return { nameCount: this.nameCount, counts };
  }

  byText(text: string): readonly number[] {
    return this.byTextIndex.get(text) ?? NO_IDS;
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
    const frequency = this.rarity ? frequencyOf(this.rarity, token.text) : this.documentFrequencyOf(token.text);
    const names = this.rarity ? this.rarity.nameCount : this.nameCount;
    const rarity = frequency === 0 || names < 2 ? 1 : Math.min(1, Math.log(names / frequency) / Math.log(names));
    // An initial says little whatever its frequency: a quarter of names share one.
    const initial = token.role === 'name' && token.text.length === 1 ? 0.3 : 1;
    return ROLE_WEIGHT[token.role] * initial * (0.4 + 0.6 * Math.max(0, rarity));
  }

  /** Sets every entry's weight once all names are counted, pausing every `step` entries (see ../steps.ts). */
  *weighAll(step: number): Steps<void> {
    for (const entry of this.entries) {
      entry.weight = this.weightOf(entry);
      if (entry.id % step === step - 1) yield;
    }
  }

  /**
   * Keys for a word that may not be in the vocabulary (a joined pair, a query word), cached. A
   * joined pair is compared letter by letter or by skeleton (عبد الله = Abdullah), never by sound.
   */
  keysOf = (text: string, template: Pick<TokenKeys, 'script' | 'role' | 'glyph'>, joined = false): TokenKeys => {
    // Only the fields a word is found by, in keysFor's order: the template may be a whole token.
    const word = { text, script: template.script, role: template.role, glyph: template.glyph };
    const interned = this.find(word) ?? (joined ? this.joinedOnLists.get(word.script)?.get(text) : undefined);
    if (interned) return interned;
    const key = `${word.role}|${word.script}|${text}|${word.glyph ?? ''}`;
    const cached = this.queryKeys.get(key);
    if (cached) return cached;
    if (this.queryKeys.size >= QUERY_KEYS_LIMIT) this.queryKeys.clear();
    const keys = joined ? joinedKeys(text, word.script) : keysFor(word);
    this.queryKeys.set(key, keys);
    return keys;
  };

  /** Keys for two adjacent list words read as one, shared by every list name that joins them. */
  joinedListKeysOf: KeysOf = (text, template) => {
    const known = this.find({ text, script: template.script, role: 'name' });
    if (known) return known;
    let sameScript = this.joinedOnLists.get(template.script);
    if (!sameScript) this.joinedOnLists.set(template.script, (sameScript = new Map()));
    let keys = sameScript.get(text);
    if (!keys) sameScript.set(text, (keys = joinedKeys(detachedString(text), template.script)));
    return keys;
  };
}

const NO_CODES: readonly string[] = [];
const NO_IDS: readonly number[] = [];
const joinedKeys = (text: string, script: Script): TokenKeys => ({
  text,
  script,
  role: 'name',
  phonetic: NO_CODES,
  skeleton: skeletonKey(text),
  glyph: undefined,
});

/**
 * A token's keys, always with the same fields in the same order (`glyph` even when undefined), as
 * every object the comparisons read is built. V8 then gives the whole vocabulary one hidden class,
 * and token comparison's property reads stay in their inline caches. Keys spread in with an
 * optional `glyph` left 19,000 of 35,000 entries in dictionary mode and the rest on thousands of
 * classes, so each read in the hottest loop of screening went the slow way.
 */
function keysFor({ text, script, role, glyph }: Pick<TokenKeys, 'text' | 'script' | 'role' | 'glyph'>): TokenKeys {
  return { text, script, role, phonetic: phoneticKeys({ text, script, role }), skeleton: skeletonKey(text), glyph };
}
