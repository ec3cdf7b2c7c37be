/**
 * What a list change can reach a stored determination through, as keys: a list entry that a
 * party's name screening counted (`entry:<LIST>:<entry id>`; its change or removal may undo the
 * designation), and the distinctive words of each party's name that was screened (`word:<folded
 * word>`; a new or changed entry sharing one may now match it). The words are the screening's own
 * reading of a name (src/screening/normalize/): folded, legal forms, honorifics, particles and
 * connectives left out. A key only finds candidates: screening a candidate's names again decides
 * (touched-checks.ts).
 *
 * Words shorter than three letters are left out of what is stored (initials, "Al", "Li" would
 * find half the graphs), except in a name made of nothing else; an entry's names are looked up by
 * every word, so such a name is still found. Nor is an entry's name looked up by its words common
 * on the lists (Trading, Global, Mohammad: below the screening's COMMON_RARITY), when it has a
 * rarer one: the rarer word carries the match (a name with the common words alone scores far
 * below a threshold), and the common ones are on so many parties' names that looking them up
 * would make a change cost what is stored rather than what it touches. So a party whose name
 * spells the looked-up words otherwise (Mohammad for Muhammad, a typo in the rare word) is not
 * found: the screening engine's other keys (sounds, typos, joined words) would multiply the rows
 * and the candidates.
 */
import { frequencyOf, type RarityTable } from '../../screening/index/vocabulary.ts';
import { COMMON_RARITY } from '../../screening/match/partial-matches.ts';
import type { ListEntity } from '../../screening/model.ts';
import { analyzeName } from '../../screening/normalize/analyze-name.ts';
import { nameVariants, queryVariants } from '../../screening/normalize/name-variants.ts';
import type { NameToScreen } from './request.ts';

/** A name as it was screened: what a candidate is screened again with. */
export type ScreenedName = Pick<NameToScreen, 'name' | 'kind' | 'country'>;

/** One key of a determination, with the names that carry it (none for an entry key). */
export type PartyKey = { key: string; names: ScreenedName[] };

const SHORT = 3;

/** One key for a name screened alike: the same name, kind and country screen the same. */
export const screenedNameKey = ({ name, kind, country }: ScreenedName) => `${kind}\u0000${country ?? ''}\u0000${name}`;

export const entryKey = (list: string, entryId: string) => `entry:${list}:${entryId}`;
const wordKey = (word: string) => `word:${word}`;

/** The words of a name that identify it: names and patronymics, never legal forms, titles, particles, connectives or numbers. */
function identifyingWords(texts: readonly string[], isPerson: boolean): string[] {
  const words = new Set<string>();
  for (const text of texts) for (const token of analyzeName(text, isPerson)) if (token.role === 'name' || token.role === 'patronymic') words.add(token.text);
  return [...words];
}

/** The word keys a party's name is stored under: every reading the screening gives it, short words only when it has no other. */
export function storedWordKeys(name: string, isPerson: boolean): string[] {
  const words = identifyingWords(
    queryVariants(name, isPerson).map((v) => v.text),
    isPerson,
  );
  const long = words.filter((w) => w.length >= SHORT);
  return (long.length > 0 ? long : words).map(wordKey);
}

/**
 * How rare a word is on the lists, as the screening weighs it (vocabulary.ts: log(names / names
 * with the word) / log(names)): 1 where the table counts too few names to tell.
 */
function rarityOn(table: RarityTable | undefined, word: string): number {
  const frequency = table ? frequencyOf(table, word) : 0;
  const names = table?.nameCount ?? 0;
  return frequency === 0 || names < 2 ? 1 : Math.log(names / frequency) / Math.log(names);
}

/** The word keys a list entry's names are looked up by: the identifying words of each name and reading, its common ones only where it has nothing rarer. */
export function lookupWordKeys(entity: Pick<ListEntity, 'names' | 'type'>, rarity?: RarityTable): string[] {
  const keys = new Set<string>();
  for (const name of entity.names)
    for (const { text } of nameVariants(name.full)) {
      const words = identifyingWords([text], entity.type === 'person');
      const rare = words.filter((word) => rarityOn(rarity, word) >= COMMON_RARITY);
      for (const word of rare.length > 0 ? rare : words) keys.add(wordKey(word));
    }
  return [...keys];
}

type CountedMatch = { list: string; entry_id: string; counted: boolean; watchlist?: unknown };

/**
 * A determination's keys: the words of each name screened, with the names, and the list entries
 * its screening counted as designations (an organization's watchlist entries never count).
 */
export function partyKeys(screened: readonly ScreenedName[], entities: readonly { screening_matches?: readonly CountedMatch[] }[]): PartyKey[] {
  const byKey = new Map<string, Map<string, ScreenedName>>();
  for (const { name, kind, country } of screened) {
    const screenedName = { name, kind, ...(country && { country }) };
    for (const key of storedWordKeys(name, kind === 'person')) {
      let names = byKey.get(key);
      if (!names) byKey.set(key, (names = new Map()));
      names.set(screenedNameKey(screenedName), screenedName);
    }
  }
  for (const entity of entities)
    for (const match of entity.screening_matches ?? []) if (match.counted && !match.watchlist) byKey.set(entryKey(match.list, match.entry_id), new Map());
  return [...byKey].map(([key, names]) => ({ key, names: [...names.values()] }));
}
