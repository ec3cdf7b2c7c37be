/**
 * `gatehouse lists update`: each configured official source is downloaded into a temporary
 * folder under its official file names, then imported exactly as `lists import` would. Sources
 * are independent: one that cannot be downloaded or read is reported and the others go on.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ListCode } from '../screening/model.ts';
import { type DownloadOptions, downloadFile } from './download.ts';
import { importListFiles } from './import-files.ts';
import type { ImportOptions, ImportOutcome } from './list-import.ts';
import type { ListSource } from './list-sources.ts';
import type { ListStore } from './list-store.ts';

export type SourceOutcome = {
  source: ListSource['name'];
  label: string;
  /** Each file as downloaded: its URL, size and SHA-256. */
  files: { url: string; bytes: number; sha256: string; attempts: number }[];
  lists: ImportOutcome[];
  /** Set when the source could not be downloaded or read; its lists were left as they were. */
  error?: string;
};

export type UpdateOptions = ImportOptions & DownloadOptions;

export async function updateLists(store: ListStore, sources: ListSource[], options: UpdateOptions): Promise<SourceOutcome[]> {
  const outcomes: SourceOutcome[] = [];
  for (const source of sources) {
    // The CSL repeats lists other sources are the authority for: those are left to them.
    const others = new Set<ListCode>(sources.filter((s) => s !== source).flatMap((s) => s.lists));
    outcomes.push(await updateSource(store, source, others, options));
  }
  return outcomes;
}

async function updateSource(store: ListStore, source: ListSource, othersLists: Set<ListCode>, options: UpdateOptions): Promise<SourceOutcome> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), `gatehouse-lists-${source.name}-`));
  const outcome: SourceOutcome = { source: source.name, label: source.label, files: [], lists: [] };
  try {
    const urlOf = new Map<string, string>();
    for (const file of source.files) {
      const destination = path.join(folder, file.fileName);
      const { url, bytes, sha256, attempts } = await downloadFile(file.url, destination, options);
      outcome.files.push({ url, bytes, sha256, attempts });
      urlOf.set(destination, url);
    }
    const imported = await importListFiles(store, [folder], {
      ...options,
      describeFile: (file) => urlOf.get(file) ?? path.basename(file),
      acceptList: (list) => source.lists.includes(list) || !othersLists.has(list),
    });
    outcome.lists = imported;
  } catch (error) {
    outcome.error = error instanceof Error ? error.message : String(error);
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
  return outcome;
}
