/**
 * One parsed list becomes one list version, atomically: compared with the active version of the
 * same list (identical content creates nothing), refused when it shrank suspiciously, otherwise
 * written with its entries and its difference from the version before, and made active, all in
 * one transaction. A failure anywhere leaves the previous version active and nothing written.
 */
import { newId } from '../ids.ts';
import type { ListCode, ListEntity } from '../screening/model.ts';
import { contentHash, countByType, diffEntries, hashEntries, ListImportError } from './list-content.ts';
import type { ListStore, ListVersion } from './list-store.ts';

/** What a parser hands over for one list (src/screening/lists/read-list-sources.ts's ParsedList). */
export type ListToImport = {
  list: ListCode;
  format: string;
  files: string[];
  sourceSha256: string;
  /** YYYY-MM-DD */
  publishedAt?: string;
  entities: ListEntity[];
  warnings: string[];
};

export type ImportOptions = {
  /** Accept a version with fewer than `shrinkLimitPercent` % of the active version's entities. */
  allowShrink?: boolean;
  /** Default 50. */
  shrinkLimitPercent?: number;
};

export type ImportOutcome =
  | { list: ListCode; status: 'imported'; version: ListVersion }
  | { list: ListCode; status: 'unchanged'; version: ListVersion }
  | { list: ListCode; status: 'refused'; reason: string };

export async function importList(store: ListStore, parsed: ListToImport, options: ImportOptions = {}): Promise<ImportOutcome> {
  const { list } = parsed;
  let entries;
  try {
    entries = hashEntries(list, parsed.entities);
  } catch (error) {
    if (error instanceof ListImportError) return { list, status: 'refused', reason: error.message };
    throw error;
  }
  const content = contentHash(entries);
  try {
    return await store.inImport(async (trx) => {
      const active = await trx.activeVersion(list);
      if (active?.contentSha256 === content) return { list, status: 'unchanged' as const, version: active };
      if (active) refuseShrink(list, parsed.entities.length, active, options);
      const diff = diffEntries(active ? await trx.entryHashes(active.id) : new Map(), entries);
      const version = await trx.writeVersion(
        {
          id: newId('lv'),
          list,
          format: parsed.format,
          sourceSha256: parsed.sourceSha256,
          contentSha256: content,
          publishedOn: parsed.publishedAt ?? null,
          entityCount: entries.length,
          countsByType: countByType(parsed.entities),
          previousVersionId: active?.id ?? null,
          files: parsed.files,
          warnings: parsed.warnings,
        },
        entries,
        diff,
      );
      return { list, status: 'imported' as const, version };
    });
  } catch (error) {
    if (error instanceof ListImportError) return { list, status: 'refused', reason: error.message };
    throw error;
  }
}

/** A list that suddenly lost most of its entries is far likelier a truncated download than a mass delisting. */
function refuseShrink(list: ListCode, count: number, active: ListVersion, options: ImportOptions) {
  const percent = options.shrinkLimitPercent ?? 50;
  if (options.allowShrink || count * 100 >= active.entityCount * percent) return;
  throw new ListImportError(
    `${list}: the new file has ${count} entities, the active version ${active.id} has ${active.entityCount} ` +
      `(below ${percent}%); it looks truncated and was not imported. Pass --allow-shrink if the list really shrank.`,
  );
}
