/**
 * What an import does to a watchlist, decided before anything is written: each row matched to
 * the entry it is (by `external_id`; a row without one, to an entry without one whose facts are
 * the same), then added, changed in place or left alone (the same SHA-256: not a change), and in
 * `replace` mode every entry no row matched removed, within the shrink limit. Pure.
 */
import type { FieldError } from '../../http/errors.ts';
import { AppError } from '../../http/errors.ts';
import type { Steps } from '../../screening/steps.ts';
import { SHRINK_MIN_REMOVALS, shrinkLimit } from '../../shrink-limit.ts';
import type { CleanEntry } from './entry-input.ts';
import type { EntryWrite } from './entry-writes.ts';
import type { WatchlistEntry } from './model.ts';

export type ImportMode = 'upsert' | 'replace';

export type ImportPlan = { adds: EntryWrite[]; changes: EntryWrite[]; removals: string[]; unchanged: number; errors: FieldError[] };

/** The plan, a row a step: run turn by turn (steps.ts `inTurns`), 50,000 rows do not hold the event loop. */
export function* planImport(
  rows: readonly CleanEntry[],
  live: readonly WatchlistEntry[],
  mode: ImportMode,
  now: Date,
  newEntryId: () => string,
): Steps<ImportPlan> {
  const byExternalId = new Map(live.filter((e) => e.externalId !== null).map((e) => [e.externalId as string, e]));
  // Entries without a key are known by their facts: a row with the same facts is that entry.
  const byFacts = new Map<string, WatchlistEntry[]>();
  for (const entry of live) if (entry.externalId === null) byFacts.set(entry.sha256, [...(byFacts.get(entry.sha256) ?? []), entry]);
  const plan: ImportPlan = { adds: [], changes: [], removals: [], unchanged: 0, errors: [] };
  const matched = new Set<string>();
  for (const [i, row] of rows.entries()) {
    const entry = row.externalId === null ? byFacts.get(row.sha256)?.shift() : byExternalId.get(row.externalId);
    if (entry) {
      matched.add(entry.id);
      if (entry.sha256 === row.sha256) plan.unchanged += 1;
      else plan.changes.push({ id: entry.id, ...row });
    } else if (row.facts.expiresAt && row.facts.expiresAt <= now) {
      plan.errors.push({ pointer: `/entries/${i}/expires_at`, detail: `${row.facts.expiresAt.toISOString()} is past: a new entry must expire in the future` });
    } else plan.adds.push({ id: newEntryId(), ...row });
    yield;
  }
  if (mode === 'replace') plan.removals = live.filter((e) => !matched.has(e.id)).map((e) => e.id);
  return plan;
}

export type ShrinkCheck = { live: number; inRequest: number; removing: number; limitPercent: number; allowShrink: boolean };

/** Throws 409 `watchlist_shrink_refused`, naming the counts, when a replace would remove more than its limit. */
export function refuseLargeRemoval({ live, inRequest, removing, limitPercent, allowShrink }: ShrinkCheck): void {
  const limit = shrinkLimit(live, limitPercent);
  if (allowShrink || removing <= limit) return;
  throw new AppError(
    'watchlist_shrink_refused',
    `This replace would remove ${removing} of the watchlist's ${live} entries (the import holds ${inRequest}); at most ${limit} may be removed at once ` +
      `(${limitPercent}%, at least ${SHRINK_MIN_REMOVALS}, never all). A file this short is more likely a truncated export than that many entries going: ` +
      'nothing was changed. Send `allow_shrink=true` if they really go.',
    { live_entries: live, entries_in_request: inRequest, would_remove: removing, removal_limit: limit, limit_percent: limitPercent },
  );
}
