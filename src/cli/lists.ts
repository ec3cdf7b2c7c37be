/**
 * `gatehouse lists import|update|status`: load restricted-party lists from files or from the
 * official sources, and show what is loaded. JSON on stdout; one human line per list on stderr.
 * Exits 1 when a list was refused or a source could not be downloaded.
 */

import cliProgress from 'cli-progress';
import { Command, Option } from 'commander';
import { loadConfig } from '../config.ts';
import type { FileProgress } from '../lists/download.ts';
import { confirmedBy, describeOutcome, importListFiles, presentOutcome } from '../lists/import-files.ts';
import type { ImportOutcome } from '../lists/list-import.ts';
import { configuredSources, expectedLists } from '../lists/list-sources.ts';
import { updateLists } from '../lists/list-update.ts';
import { presentVersion } from '../lists/list-view.ts';
import { LIST_FORMATS, type ListFormat } from '../screening/lists/list-format.ts';
import { withDatabase } from './with-database.ts';

const ALLOW_SHRINK = 'accept a list with far fewer entities than the active version (normally refused as a truncated file)';

export function listsCommand() {
  const lists = new Command('lists').description('Load restricted-party lists and show which versions are active.');
  lists
    .command('import')
    .description('Import list files or folders (format detected from names and contents); a list whose content is unchanged creates no version.')
    .argument('<paths...>', 'files or folders')
    .addOption(new Option('--format <format>', 'read every file as this format').choices(LIST_FORMATS))
    .option('--allow-shrink', ALLOW_SHRINK)
    .action((paths: string[], options: { format?: ListFormat; allowShrink?: boolean }) => {
      const config = loadConfig();
      return withDatabase(
        async (db) => {
          const outcomes = await importListFiles(db.lists, paths, {
            ...(options.format && { format: options.format }),
            allowShrink: options.allowShrink ?? false,
            shrinkLimitPercent: config.lists.shrinkLimitPercent,
          });
          await db.listChecks.confirm(confirmedBy(outcomes));
          report(outcomes);
          return outcomes.map(presentOutcome);
        },
        { migrate: true },
      );
    });
  lists
    .command('update')
    .description(
      "Check every configured source now (URLs from LISTS_URL_*, each source's tried in order), download what changed and import it " +
        'like `lists import`. A running service does the same on its own every LISTS_REFRESH_INTERVAL.',
    )
    .option('--allow-shrink', ALLOW_SHRINK)
    .option('--force', 'download and read every file even where the publisher says it has not changed')
    .action((options: { allowShrink?: boolean; force?: boolean }) => {
      const config = loadConfig();
      return withDatabase(
        async (db) => {
          const bars = process.stderr.isTTY ? progressBars() : undefined;
          const sources = await updateLists(db, configuredSources(config.lists.sources), {
            browserUserAgent: config.lists.browserUserAgent,
            force: options.force ?? false,
            allowShrink: options.allowShrink ?? false,
            shrinkLimitPercent: config.lists.shrinkLimitPercent,
            timeoutMs: config.lists.downloadTimeoutMs,
            retries: config.lists.downloadRetries,
            ...(bars && { progress: bars.add }),
          });
          bars?.stop();
          for (const source of sources) {
            if (source.error) {
              process.exitCode = 1;
              process.stderr.write(`${source.label}: not updated. ${source.error}\n`);
            }
            report(source.lists);
          }
          return sources.map(({ lists: outcomes, ...source }) => ({ ...source, lists: outcomes.map(presentOutcome) }));
        },
        { migrate: true },
      );
    });
  lists
    .command('status')
    .description('Print the active version of each list, with its age, and the expected lists that are missing.')
    .action(() => {
      const config = loadConfig();
      return withDatabase(async (db) => {
        const active = await db.lists.activeVersions();
        const loaded = new Set(active.map((v) => v.list));
        return { lists: active.map((version) => presentVersion(version)), missing: expectedLists(config.lists.sources).filter((l) => !loaded.has(l)) };
      });
    });
  return lists;
}

function report(outcomes: ImportOutcome[]) {
  for (const outcome of outcomes) {
    if (outcome.status === 'refused') process.exitCode = 1;
    process.stderr.write(`${describeOutcome(outcome)}\n`);
  }
}

/** One bar per file on a terminal; nothing when stderr is a file or a pipe. */
function progressBars() {
  const multi = new cliProgress.MultiBar(
    { format: '{file} [{bar}] {percentage}% {value}/{total} bytes', hideCursor: true, clearOnComplete: false, stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  return {
    add: (file: string, total: number | undefined): FileProgress => {
      const bar = multi.create(total ?? 0, 0, { file });
      const tick = (received: number) => {
        if (total === undefined) bar.setTotal(received); // the server did not say: show what came so far
        bar.update(received);
      };
      return { tick, done: () => bar.stop() };
    },
    stop: () => multi.stop(),
  };
}
