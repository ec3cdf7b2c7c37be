/**
 * A list version's entries as the service's thread keeps them: each entity's JSON text as the
 * database stores it, sorted by entry id, packed into one block of shared memory
 * (packed-texts.ts), beside the entry ids. The same entities as objects were hundreds of thousands
 * of small objects to mark at every full collection, on the thread that answers requests; as
 * strings they were still 17 MB of that thread's heap, and had to be copied to the index thread
 * (index-thread.ts) at every refresh, which now reads the very same memory. Objects are made where
 * they are used: on the index thread, and here one at a time, for display.
 */
import { lowerBound } from '../screening/lower-bound.ts';
import type { ListEntity } from '../screening/model.ts';
import { joinRuns, type PackedTexts, packTexts, type TextRun, textAt } from './packed-texts.ts';

export type StoredEntry = { entryId: string; text: string };

/** `texts`: entry i's text is text i of the block. */
export type StoredEntries = { readonly ids: readonly string[]; readonly texts: PackedTexts };

/** The entries in entry-id order, compared as JavaScript compares strings (whatever the database's collation). */
export function storedEntries(rows: readonly StoredEntry[]): StoredEntries {
  const sorted = [...rows].sort((a, b) => (a.entryId < b.entryId ? -1 : a.entryId > b.entryId ? 1 : 0));
  return { ids: sorted.map((r) => r.entryId), texts: packTexts(sorted.map((r) => r.text)) };
}

/**
 * A version that follows `previous`: its entries less the `replaced` ones, plus those read for it
 * (an entry read replaces one with its id). Merged in order, the kept texts' bytes copied a run of
 * consecutive entries at a time, without a string or an object per entry.
 */
export function followingEntries(previous: StoredEntries, replaced: ReadonlySet<string>, read: readonly StoredEntry[]): StoredEntries {
  const incoming = storedEntries(read);
  const ids: string[] = [];
  const runs: TextRun[] = [];
  const take = (from: StoredEntries, i: number) => {
    ids.push(from.ids[i] as string);
    const last = runs.at(-1);
    if (last?.from === from.texts && last.end === i) last.end += 1;
    else runs.push({ from: from.texts, start: i, end: i + 1 });
  };
  let i = 0;
  let j = 0;
  while (i < previous.ids.length || j < incoming.ids.length) {
    const kept = previous.ids[i];
    const added = incoming.ids[j];
    if (kept !== undefined && (replaced.has(kept) || kept === added)) i++;
    else if (added === undefined || (kept !== undefined && kept < added)) take(previous, i++);
    else take(incoming, j++);
  }
  return { ids, texts: joinRuns(runs) };
}

/** One entry's entity, parsed from its text; undefined when the version has no such entry. */
export function storedEntity(entries: StoredEntries, entryId: string): ListEntity | undefined {
  const low = lowerBound(entries.ids, entryId);
  return entries.ids[low] === entryId ? (JSON.parse(textAt(entries.texts, low)) as ListEntity) : undefined;
}
