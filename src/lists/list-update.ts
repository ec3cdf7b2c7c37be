/**
 * One check of the configured sources, as `gatehouse lists update` and the scheduled refresh run
 * it. Each source's locations are tried in order (official first): its files are downloaded into
 * a temporary folder under their official names (conditionally, when the validators the last
 * check kept still describe the active versions), looked at (content-check.ts), and imported
 * exactly as `lists import` would. A location that fails in any way hands over to the next; the
 * active versions stay until one succeeds. Sources are independent. Every check is recorded: a
 * success confirms the source's lists current, a failure counts towards "failing".
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ListCode } from '../screening/model.ts';
import { VERSION } from '../version.ts';
import { checkListFile } from './content-check.ts';
import { type Downloaded, type DownloadOptions, downloadFile } from './download.ts';
import { importListFiles } from './import-files.ts';
import type { ImportOptions, ImportOutcome } from './list-import.ts';
import type { ListSource, SourceLocation, SourceName } from './list-sources.ts';
import type { ListStore } from './list-store.ts';
import type { FileValidators } from './list-tables.ts';
import type { SourceCheck, SourceCheckStore } from './source-check-store.ts';

export type SourceOutcome = {
  source: SourceName;
  label: string;
  /**
   * - `imported`: a new version of at least one list became active;
   * - `unchanged`: the files were fetched and hold what is active (or the bytes were those of the last check);
   * - `not_modified`: the publisher answered 304 to the conditional request, nothing was downloaded;
   * - `failed`: no location served files that could be imported; `error` says why.
   */
  status: 'imported' | 'unchanged' | 'not_modified' | 'failed';
  /** The location that served the files. */
  url?: string;
  /** Each file as fetched from that location: its URL, size and SHA-256. */
  files: { url: string; bytes: number; sha256: string; attempts: number }[];
  lists: ImportOutcome[];
  /** Why each location that was tried and failed did. */
  failures: { url: string; error: string }[];
  error?: string;
};

export type UpdateOptions = ImportOptions &
  DownloadOptions & {
    /** Sent to sources whose publisher requires a browser-like one. */
    browserUserAgent: string;
    /** Ignore the validators of the last check: download and read every file. */
    force?: boolean;
    /** Every configured source, when only some are checked: which lists each is the authority for. */
    configured?: ListSource[];
  };

export type ListTables = { lists: ListStore; listChecks: SourceCheckStore };

/** What Gatehouse calls itself to publishers that do not insist on a browser. */
const OWN_USER_AGENT = `gatehouse/${VERSION} (restricted-party list refresh)`;

export async function updateLists(db: ListTables, sources: ListSource[], options: UpdateOptions): Promise<SourceOutcome[]> {
  const checks = new Map((await db.listChecks.checks()).map((c) => [c.source, c]));
  const outcomes: SourceOutcome[] = [];
  for (const source of sources) {
    // The CSL repeats lists other sources are the authority for: those are left to them.
    const others = new Set<ListCode>((options.configured ?? sources).filter((s) => s.name !== source.name).flatMap((s) => s.lists));
    const outcome = await updateSource(db, source, others, checks.get(source.name), options);
    if (outcome.status === 'failed') await db.listChecks.recordFailure(source.name, outcome.error as string);
    outcomes.push(outcome);
  }
  return outcomes;
}

async function updateSource(
  db: ListTables,
  source: ListSource,
  others: Set<ListCode>,
  check: SourceCheck | undefined,
  options: UpdateOptions,
): Promise<SourceOutcome> {
  const outcome: SourceOutcome = { source: source.name, label: source.label, status: 'failed', files: [], lists: [], failures: [] };
  // The validators describe the files behind the versions active after the last check: if
  // someone imported another version since, the files must be read again.
  // The source's lists: those it is the authority for, and those its files also brought last time
  // (the CSL's sub-lists Gatehouse has no source for).
  const ownedBefore = (list: ListCode, id: string) => source.lists.includes(list) || (check?.versionIds.includes(id) ?? false);
  const active = await headsOf(db.lists, ownedBefore);
  const validators =
    !options.force &&
    check &&
    sameIds(
      check.versionIds,
      active.map((v) => v.id),
    )
      ? check.validators
      : {};
  for (const location of source.locations) {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), `gatehouse-lists-${source.name}-`));
    try {
      const result = await fromLocation(db, source, location, folder, validators, others, options);
      Object.assign(outcome, result, { url: location.url });
      if (result.status !== 'failed') {
        const read = result.lists.filter((o) => o.status !== 'refused').map((o) => o.list);
        const confirmed = result.status === 'imported' || read.length > 0 ? read : active.map((v) => v.list);
        await db.listChecks.confirm(confirmed);
        const owned = await headsOf(db.lists, (list, id) => ownedBefore(list, id) || read.includes(list));
        await db.listChecks.recordSuccess(source.name, { validators: result.validators, versionIds: owned.map((v) => v.id) });
        return outcome;
      }
      outcome.failures.push({ url: location.url, error: result.error });
    } catch (error) {
      outcome.failures.push({ url: location.url, error: error instanceof Error ? error.message : String(error) });
    } finally {
      await fs.rm(folder, { recursive: true, force: true });
    }
  }
  outcome.status = 'failed';
  outcome.error = outcome.failures.map((f) => f.error).join('; then ');
  return outcome;
}

type LocationResult =
  | { status: 'imported' | 'unchanged' | 'not_modified'; files: SourceOutcome['files']; lists: ImportOutcome[]; validators: Record<string, FileValidators> }
  | { status: 'failed'; files: SourceOutcome['files']; lists: ImportOutcome[]; error: string };

async function fromLocation(
  db: ListTables,
  source: ListSource,
  location: SourceLocation,
  folder: string,
  known: Record<string, FileValidators>,
  others: Set<ListCode>,
  options: UpdateOptions,
): Promise<LocationResult> {
  const request = (url: string, conditional: boolean) => ({
    url,
    userAgent: source.browserUserAgent ? options.browserUserAgent : OWN_USER_AGENT,
    validators: conditional ? known[url] : undefined,
    redirectAllowed: source.redirectAllowed,
  });
  const fetched = new Map<string, Downloaded>();
  let notModified = 0;
  for (const file of location.files) {
    const destination = path.join(folder, file.fileName);
    const result = await downloadFile(request(file.url, true), destination, options);
    if (result.status === 'downloaded') fetched.set(file.url, result);
    else notModified += 1;
  }
  if (notModified === location.files.length) return { status: 'not_modified', files: [], lists: [], validators: known };
  // Some files changed: the ones that did not are needed too, so they are fetched unconditionally.
  for (const file of location.files) {
    if (fetched.has(file.url)) continue;
    const result = await downloadFile(request(file.url, false), path.join(folder, file.fileName), options);
    if (result.status === 'downloaded') fetched.set(file.url, result);
  }
  const downloads = location.files.map((file) => fetched.get(file.url) as Downloaded);
  const files = downloads.map(({ url, bytes, sha256, attempts }) => ({ url, bytes, sha256, attempts }));
  for (const [index, download] of downloads.entries()) {
    const fileName = (location.files[index] as { fileName: string }).fileName;
    try {
      await checkListFile({ path: download.path, fileName, contentType: download.contentType });
    } catch (error) {
      return { status: 'failed', files, lists: [], error: `${download.url}: ${(error as Error).message}` };
    }
  }
  const validators = Object.fromEntries(downloads.map((d) => [d.url, d.validators]));
  // The same bytes as the last check: nothing to read (a publisher without ETags costs no parse).
  if (downloads.every((d) => known[d.url]?.sha256 === d.sha256)) return { status: 'unchanged', files, lists: [], validators };
  const urlOf = new Map(downloads.map((d) => [d.path, d.url]));
  const lists = await importListFiles(db.lists, [folder], {
    ...options,
    describeFile: (file) => urlOf.get(file) ?? path.basename(file),
    acceptList: (list) => source.lists.includes(list) || !others.has(list),
  });
  const refused = lists.filter((o) => o.status === 'refused');
  if (refused.length > 0) return { status: 'failed', files, lists, error: refused.map((o) => (o.status === 'refused' ? o.reason : '')).join('; ') };
  return { status: lists.some((o) => o.status === 'imported') ? 'imported' : 'unchanged', files, lists, validators };
}

async function headsOf(store: ListStore, owned: (list: ListCode, versionId: string) => boolean): Promise<{ list: ListCode; id: string }[]> {
  return (await store.activeVersions()).filter((v) => owned(v.list, v.id)).sort((a, b) => a.id.localeCompare(b.id));
}

const sameIds = (a: string[], b: string[]) => a.length === b.length && [...a].sort().every((id, i) => id === b[i]);
