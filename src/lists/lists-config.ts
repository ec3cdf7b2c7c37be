/**
 * The `LISTS_*` settings: where the lists come from, how often a running service checks its
 * sources, and when it says a list is stale. Each source's URLs default to SOURCES.md §18's
 * (list-sources.ts); LISTS_URL_<SOURCE> replaces them with one or more URLs tried in order, or
 * `off`.
 */
import type { EnvReader } from '../env-reader.ts';
import { parseDurationSeconds } from '../env-reader.ts';
import type { ListCode } from '../screening/model.ts';
import { DEFAULT_SOURCE_URLS, type ListSourceUrls, SOURCE_DEFINITIONS } from './list-sources.ts';

export type ListsConfig = {
  /** Imported at start when its content changed. */
  dir: string | undefined;
  /** Download the lists at start and check the sources on a schedule while serving. */
  autoUpdate: boolean;
  /** How often a serving process checks its sources for new versions. */
  refreshIntervalSeconds: number;
  /** How often a running service looks for a version another process imported. */
  reloadSeconds: number;
  /** A new version with fewer than this % of the active version's entities is refused. */
  shrinkLimitPercent: number;
  downloadTimeoutMs: number;
  downloadRetries: number;
  /** Sent to publishers that refuse clients not looking like a browser (OFAC). */
  browserUserAgent: string;
  sources: ListSourceUrls;
  /** Hours after a list's last successful check at which it is stale, by list; `*` for the rest. */
  maxAgeHours: Record<ListCode | '*', number>;
  /** A source whose last this many checks failed makes the service degraded. */
  failedChecksBeforeDegraded: number;
};

/**
 * Firewalls that let browsers through look for `Mozilla/<digit>` and a string of some length
 * (OFAC's: at least 40 characters, SOURCES.md §18); the rest says honestly who is asking.
 */
export const DEFAULT_BROWSER_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) Gatehouse/0.1 restricted-party list refresh';

const DEFAULT_UNLISTED_MAX_AGE_HOURS = 72;

export function readListsConfig(read: EnvReader, resolvePath: (p: string) => string): ListsConfig {
  const dir = read.optionalString('LISTS_DIR');
  const userAgent = read.optionalString('LISTS_USER_AGENT') ?? DEFAULT_BROWSER_USER_AGENT;
  if (!/^Mozilla\/\d/.test(userAgent) || userAgent.length < 40) {
    read.problem('LISTS_USER_AGENT must start with Mozilla/<digit> and be at least 40 characters long, or OFAC refuses the download');
  }
  return {
    dir: dir === undefined ? undefined : resolvePath(dir),
    autoUpdate: read.boolean('LISTS_AUTO_UPDATE', true),
    refreshIntervalSeconds: read.durationSeconds('LISTS_REFRESH_INTERVAL', 3_600, 1, 7 * 86_400),
    reloadSeconds: read.integer('LISTS_RELOAD_SECONDS', 30, 1, 86_400),
    shrinkLimitPercent: read.integer('LISTS_SHRINK_LIMIT_PERCENT', 50, 0, 100),
    downloadTimeoutMs: read.integer('LISTS_DOWNLOAD_TIMEOUT_MS', 120_000, 1_000, 3_600_000),
    downloadRetries: read.integer('LISTS_DOWNLOAD_RETRIES', 3, 0, 10),
    browserUserAgent: userAgent,
    sources: Object.fromEntries(
      SOURCE_DEFINITIONS.flatMap((source) => {
        const urls = sourceUrls(read, `LISTS_URL_${source.env}`, DEFAULT_SOURCE_URLS[source.name]);
        return urls ? [[source.name, urls]] : [];
      }),
    ),
    maxAgeHours: maxAges(read),
    failedChecksBeforeDegraded: read.integer('LISTS_FAILED_CHECKS_BEFORE_DEGRADED', 3, 1, 100),
  };
}

/** One or more URLs separated by spaces or commas, tried in order; `off` turns the source off. */
function sourceUrls(read: EnvReader, name: string, fallback: string[] | undefined): string[] | undefined {
  const raw = read.optionalString(name);
  if (raw === undefined) return fallback;
  if (raw.toLowerCase() === 'off') return undefined;
  const urls = raw.split(/[\s,]+/).filter(Boolean);
  for (const url of urls) if (!/^https?:\/\/[^/\s]+/.test(url)) read.problem(`${name} must be http(s) URLs separated by spaces, or "off" (got "${url}")`);
  return urls;
}

/**
 * LISTS_MAX_AGE: `OFAC_SDN=24h,UN_SC=7d,*=72h`. Unnamed lists keep their source's default
 * (48 hours for OFAC's, 72 for the others); `*` sets every list the entries do not name.
 */
function maxAges(read: EnvReader): Record<ListCode | '*', number> {
  const ages: Record<string, number> = { '*': DEFAULT_UNLISTED_MAX_AGE_HOURS };
  for (const source of SOURCE_DEFINITIONS) for (const list of source.lists) ages[list] = source.maxAgeHours;
  const raw = read.optionalString('LISTS_MAX_AGE');
  if (raw === undefined) return ages;
  const given: Record<string, number> = {};
  for (const entry of raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [list, duration] = entry.split('=').map((part) => part.trim());
    const seconds = duration === undefined ? undefined : parseDurationSeconds(duration);
    if (!list || !/^(\*|[A-Z][A-Z0-9_]{1,39})$/.test(list) || seconds === undefined || seconds < 1) {
      read.problem(`LISTS_MAX_AGE must be LIST=duration pairs separated by commas, like OFAC_SDN=24h,*=3d (got "${entry}")`);
      continue;
    }
    given[list] = seconds / 3_600;
  }
  // `*` replaces the defaults of the lists not named; named lists take their own value.
  if (given['*'] !== undefined) for (const list of Object.keys(ages)) ages[list] = given['*'];
  return { ...ages, ...given } as Record<ListCode | '*', number>;
}
