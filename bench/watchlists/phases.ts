/**
 * The steps of bench:watchlists against a running service, over real HTTP: loading every
 * organization's watchlist through the API, each organization's first prescreen after it (where
 * its watchlist index is built), waiting for the monitoring runs the loading queued, and the time
 * from adding one entry to a prescreen matching it.
 */
import type { BenchOrganization } from '../api/bench-organizations.ts';
import type { EntryBody } from './entries.ts';

export const SLUG = 'do-not-admit';
const WATCHLIST_LIST = `ORG:${SLUG}`;
/** The API's largest import (src/features/watchlists/import-schemas.ts MAX_IMPORT_ENTRIES). */
const IMPORT_CHUNK = 50_000;
/** Requests in flight while loading: the API is the bottleneck, not the client. */
const CONCURRENCY = 4;
/** How often a trial asks whether the new entry matches yet. */
const POLL_MS = 10;
const TRIAL_TIMEOUT_MS = 30_000;

export type Api = (method: string, path: string, key: string, body?: unknown) => Promise<{ status: number; json: unknown }>;

export function apiAt(baseUrl: string): Api {
  return async (method, path, key, body) => {
    const response = await fetch(`${baseUrl}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : undefined };
  };
}

/** The answer's body as `T`, once its status is the one expected; throws with the answer otherwise. */
async function expect<T>(what: string, answer: ReturnType<Api>, status: number): Promise<T> {
  const { status: got, json } = await answer;
  if (got !== status) throw new Error(`${what}: ${got} ${JSON.stringify(json).slice(0, 500)}`);
  return json as T;
}

type Screening = { matches?: { list: string }[] };

/** Runs `work` over `items`, CONCURRENCY at a time. */
async function inTurn<T>(items: readonly T[], work: (item: T, i: number) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await work(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

export type LoadedWatchlist = { organization: BenchOrganization; watchlistId: string; entries: EntryBody[] };

/** Creates one watchlist per organization and imports its entries (upsert, in chunks the API takes). */
export async function loadWatchlists(api: Api, plan: { organization: BenchOrganization; entries: EntryBody[] }[]): Promise<LoadedWatchlist[]> {
  const loaded: LoadedWatchlist[] = [];
  await inTurn(plan, async ({ organization, entries }) => {
    const key = organization.apiKey;
    const watchlist = await expect<{ id: string }>('POST /watchlists', api('POST', '/watchlists', key, { slug: SLUG, name: 'Do not admit' }), 201);
    for (let at = 0; at < entries.length; at += IMPORT_CHUNK) {
      const chunk = entries.slice(at, at + IMPORT_CHUNK);
      await expect('PUT /watchlists/{id}/entries', api('PUT', `/watchlists/${watchlist.id}/entries?mode=upsert`, key, { entries: chunk }), 200);
    }
    loaded.push({ organization, watchlistId: watchlist.id, entries });
  });
  return loaded;
}

const matchesWatchlist = (screening: Screening) => (screening.matches ?? []).some((m) => m.list === WATCHLIST_LIST);

/** Each organization's first prescreen after its watchlist was loaded (a name on it), in milliseconds, and whether it matched. */
export async function firstPrescreens(api: Api, loaded: readonly LoadedWatchlist[]): Promise<{ ms: number[]; missed: number }> {
  const ms: number[] = [];
  let missed = 0;
  await inTurn(loaded, async ({ organization, entries }) => {
    const started = performance.now();
    const screening = await expect<Screening>('POST /prescreen', api('POST', '/prescreen', organization.apiKey, { subject: entries[0]?.name }), 201);
    ms.push(performance.now() - started);
    if (!matchesWatchlist(screening)) missed++;
  });
  return { ms: ms.sort((a, b) => a - b), missed };
}

type RunPage = { data: { status: string }[] };
const SETTLED_POLL_MS = 500;

/**
 * Waits until every monitoring run of the organizations has finished (a version that added
 * entries queues one: loading a thousand watchlists queues a thousand), so that what is measured
 * next is prescreens beside watchlists, not beside the re-screens of the loading. Seconds waited.
 */
export async function monitoringSettled(api: Api, organizations: readonly BenchOrganization[]): Promise<number> {
  const started = performance.now();
  let waiting = [...organizations];
  while (waiting.length > 0) {
    const still: BenchOrganization[] = [];
    await inTurn(waiting, async (organization) => {
      const page = await expect<RunPage>('GET /monitoring/runs', api('GET', '/monitoring/runs?limit=10', organization.apiKey), 200);
      if (page.data.some((run) => run.status === 'queued' || run.status === 'running')) still.push(organization);
    });
    waiting = still;
    if (waiting.length > 0) await new Promise((resolve) => setTimeout(resolve, SETTLED_POLL_MS));
  }
  return (performance.now() - started) / 1000;
}

/**
 * One trial: add `entry` to the watchlist, then prescreen its name every POLL_MS until a match on
 * the watchlist comes back. Milliseconds from sending the POST to that answer; one at a time, so
 * trials do not queue behind each other.
 */
export async function entryToMatch(api: Api, watchlist: LoadedWatchlist, entry: EntryBody): Promise<number> {
  const key = watchlist.organization.apiKey;
  const started = performance.now();
  await expect('POST /watchlists/{id}/entries', api('POST', `/watchlists/${watchlist.watchlistId}/entries`, key, entry), 201);
  while (performance.now() - started < TRIAL_TIMEOUT_MS) {
    const screening = await expect<Screening>('POST /prescreen', api('POST', '/prescreen', key, { subject: entry.name }), 201);
    if (matchesWatchlist(screening)) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`an entry added to ${watchlist.watchlistId} did not match within ${TRIAL_TIMEOUT_MS / 1000} s`);
}
