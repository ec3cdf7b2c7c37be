/**
 * What `serve` does about lists before it listens: import LISTS_DIR when its content changed (the
 * ordinary import, so unchanged content is a no-op, and the lists it holds count as confirmed).
 * The downloads are the scheduled refresh's (list-refresher.ts), which starts with the service.
 */
import { confirmedBy, describeOutcome, importListFiles } from './import-files.ts';
import type { ListTables } from './list-update.ts';
import type { ListsConfig } from './lists-config.ts';

type Log = { info(fields: object, message: string): void; error(fields: object, message: string): void };

/** Imports LISTS_DIR, if set. A folder that cannot be read is logged; the lists already loaded stay. */
export async function importListsDir(db: ListTables, config: ListsConfig, log: Log): Promise<void> {
  if (!config.dir) return;
  try {
    const outcomes = await importListFiles(db.lists, [config.dir], { shrinkLimitPercent: config.shrinkLimitPercent });
    await db.listChecks.confirm(confirmedBy(outcomes));
    for (const outcome of outcomes) {
      const fields = { list: outcome.list, status: outcome.status, ...(outcome.status !== 'refused' && { version_id: outcome.version.id }) };
      (outcome.status === 'refused' ? log.error : log.info).call(log, fields, `LISTS_DIR: ${describeOutcome(outcome)}`);
    }
  } catch (error) {
    log.error({ dir: config.dir, err: error }, `LISTS_DIR ${config.dir} could not be imported; the lists loaded before stay active`);
  }
}
