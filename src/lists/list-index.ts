/**
 * The screening index a list snapshot carries, as its callers see it: asked, and answered later.
 * The service's own snapshot keeps its index on a thread of its own (index-thread.ts), so the
 * options a screening sends are plain data that cross threads; a snapshot of a few entries (a
 * monitoring run's changes) keeps its index in place behind the same interface.
 */
import type { RarityTable } from '../screening/index/vocabulary.ts';
import type { ScreeningMatch, ScreeningOptions, SubjectQuery } from '../screening/match-types.ts';
import type { ScreeningIndex } from '../screening/screening-index.ts';
import type { Steps } from '../screening/steps.ts';

/** Each list's alert threshold, and the one for a list not named. */
export type ListThresholds = { lists: Readonly<Record<string, number>>; otherwise: number };

/** ScreeningOptions as data: the alert threshold one number or one per list; no `accept` function. */
export type SentScreeningOptions = Omit<ScreeningOptions, 'threshold' | 'accept'> & { threshold?: number | ListThresholds };

export interface ListIndex {
  readonly entityCount: number;
  readonly nameCount: number;
  screen(query: SubjectQuery, options?: SentScreeningOptions): Promise<ScreeningMatch[]>;
  /** How rare each word is on these names (see ScreeningIndex.rarity). */
  rarity(): RarityTable;
}

/** The engine's options for what was sent. */
export function receivedOptions(sent: SentScreeningOptions = {}): ScreeningOptions {
  const { threshold, ...rest } = sent;
  if (threshold === undefined || typeof threshold === 'number') return { ...rest, ...(threshold !== undefined && { threshold }) };
  return { ...rest, threshold: (list) => threshold.lists[list] ?? threshold.otherwise };
}

/** An index built on this thread, behind the same interface: for snapshots small enough to index where they are read. */
export function indexInPlace(index: ScreeningIndex): ListIndex {
  return {
    entityCount: index.entityCount,
    nameCount: index.nameCount,
    screen: async (query, options) => index.screen(query, receivedOptions(options)),
    rarity: () => index.rarity(),
  };
}

/**
 * A rarity table as one string and one array: a Map of tens of thousands of words took the
 * service's thread tens of milliseconds to receive; these cross as two copies of memory.
 */
export type PackedRarity = { nameCount: number; words: string; counts: Uint32Array };
const WORD_SEPARATOR = '\u0000';

export function packedRarity(table: RarityTable): PackedRarity {
  return { nameCount: table.nameCount, words: [...table.counts.keys()].join(WORD_SEPARATOR), counts: Uint32Array.from(table.counts.values()) };
}

/**
 * The table again, a word a step (steps.ts): every new version's re-evaluation weighs by it, and
 * the 28,000 words of the full set took the service's thread 7 to 11 ms at once.
 */
export function* unpackedRaritySteps(packed: PackedRarity): Steps<RarityTable> {
  const counts = new Map<string, number>();
  if (packed.words !== '') {
    for (const [i, word] of packed.words.split(WORD_SEPARATOR).entries()) {
      counts.set(word, packed.counts[i] as number);
      yield;
    }
  }
  return { nameCount: packed.nameCount, counts };
}
