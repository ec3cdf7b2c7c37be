/**
 * What `serve` does about lists before and after it listens: import LISTS_DIR when its content
 * changed (the ordinary import, so unchanged content is a no-op), and on a database with no list
 * at all, download the official ones in the background. Neither stops the service: without
 * lists it serves, readiness says what is missing, and screenings answer 503 lists_unavailable.
 */
import type { Config } from '../config.ts';
import type { ListCatalog } from './catalog.ts';
import { describeOutcome, importListFiles } from './import-files.ts';
import { configuredSources } from './list-sources.ts';
import type { ListStore } from './list-store.ts';
import { updateLists } from './list-update.ts';

type Log = { info(fields: object, message: string): void; warn(fields: object, message: string): void; error(fields: object, message: string): void };

const OFFLINE_HINT =
  'Without network access, copy the list files to this machine and run `gatehouse lists import ../path/to/lists` ' +
  '(or set LISTS_DIR); set LISTS_AUTO_UPDATE=false to stop trying at start.';

/** Imports LISTS_DIR, if set. A folder that cannot be read is logged; the lists already loaded stay. */
export async function importListsDir(store: ListStore, config: Config['lists'], log: Log): Promise<void> {
  if (!config.dir) return;
  try {
    const outcomes = await importListFiles(store, [config.dir], { shrinkLimitPercent: config.shrinkLimitPercent });
    for (const outcome of outcomes) {
      const fields = { list: outcome.list, status: outcome.status, ...(outcome.status !== 'refused' && { version_id: outcome.version.id }) };
      (outcome.status === 'refused' ? log.error : log.info).call(log, fields, `LISTS_DIR: ${describeOutcome(outcome)}`);
    }
  } catch (error) {
    log.error({ dir: config.dir, err: error }, `LISTS_DIR ${config.dir} could not be imported; the lists loaded before stay active`);
  }
}

/**
 * On the first start of a database without any list, runs `lists update` in the background and
 * reloads the catalog when it is done. Resolves when that is over (tests wait for it; serve does not).
 */
export async function updateListsIfNone(store: ListStore, catalog: ListCatalog, config: Config['lists'], log: Log): Promise<void> {
  if (!config.autoUpdate || (await store.activeVersionIds()).length > 0) return;
  log.info({}, 'no restricted-party list is loaded: downloading the official lists in the background (LISTS_AUTO_UPDATE=false turns this off)');
  try {
    const sources = await updateLists(store, configuredSources(config.sources), {
      shrinkLimitPercent: config.shrinkLimitPercent,
      timeoutMs: config.downloadTimeoutMs,
      retries: config.downloadRetries,
    });
    const failed = sources.filter((s) => s.error);
    for (const source of sources) for (const outcome of source.lists) log.info({ list: outcome.list, status: outcome.status }, describeOutcome(outcome));
    if (failed.length > 0) {
      log.warn(
        { failed: failed.map((s) => ({ source: s.source, error: s.error })) },
        `could not download ${failed.map((s) => s.label).join(', ')}. ${OFFLINE_HINT}`,
      );
    }
  } catch (error) {
    log.warn({ err: error }, `the lists could not be downloaded. ${OFFLINE_HINT}`);
  }
  await catalog.refresh();
}
