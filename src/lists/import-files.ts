/**
 * `gatehouse lists import PATH…`, `LISTS_DIR` at start and `lists update` all come here: the files
 * are read, parsed and hashed first, in a worker thread (a file that cannot be read fails the call
 * before anything is written), then each list becomes a version of its own (list-import.ts).
 */
import type { ListFormat } from '../screening/lists/read-list-sources.ts';
import type { ListCode } from '../screening/model.ts';
import { type ImportOptions, type ImportOutcome, importPrepared } from './list-import.ts';
import type { ListStore } from './list-store.ts';
import { presentVersion } from './list-view.ts';
import { readListsInWorker } from './read-lists-in-worker.ts';

export type ImportFilesOptions = ImportOptions & {
  format?: ListFormat;
  /** Shows a file as something other than its local path (a download's URL). */
  describeFile?: (file: string) => string;
  /** Which of the lists read to import; all by default. */
  acceptList?: (list: ListCode) => boolean;
};

export async function importListFiles(store: ListStore, paths: string[], options: ImportFilesOptions = {}): Promise<ImportOutcome[]> {
  const read = await readListsInWorker({ paths, ...(options.format && { format: options.format }) });
  const outcomes: ImportOutcome[] = [];
  for (const list of read) {
    if (options.acceptList && !options.acceptList(list.list)) continue;
    if ('error' in list) {
      outcomes.push({ list: list.list, status: 'refused', reason: list.error.message });
      continue;
    }
    const files = options.describeFile ? list.prepared.files.map(options.describeFile) : list.prepared.files;
    outcomes.push(await importPrepared(store, { ...list.prepared, files }, options));
  }
  return outcomes;
}

/** An outcome as the CLI prints it. */
export function presentOutcome(outcome: ImportOutcome) {
  if (outcome.status === 'refused') return outcome;
  const { version } = outcome;
  return { status: outcome.status, ...presentVersion(version), files: version.files };
}

/** One line for a person: what happened to each list. */
export function describeOutcome(outcome: ImportOutcome): string {
  if (outcome.status === 'refused') return `${outcome.list}: refused. ${outcome.reason}`;
  const { version } = outcome;
  if (outcome.status === 'unchanged') return `${outcome.list}: unchanged, ${version.entityCount} entities (version ${version.id})`;
  const { added, removed, changed } = version.changes;
  return `${outcome.list}: imported ${version.entityCount} entities as ${version.id} (${added} added, ${removed} removed, ${changed} changed)`;
}

/** The lists an import confirmed current: the ones it made a version of or found unchanged. */
export const confirmedBy = (outcomes: ImportOutcome[]) => outcomes.filter((o) => o.status !== 'refused').map((o) => o.list);
