/**
 * Entries written with the version that changes them: added, changed in place (the id stays, so
 * a case that cites the entry still finds it) and removed (the row stays, marked). Every write
 * stamps the entry with the version's number and who made it. Many rows go in one statement: an
 * import of 50,000 entries is 50 inserts, not 50,000.
 */
import { sql } from 'kysely';
import type { TenantTransaction } from '../../db/tenant.ts';
import type { EntryFacts } from './model.ts';

/** An entry's new state: its id (new, or the one it keeps), its key and its facts. */
export type EntryWrite = { id: string; externalId: string | null; facts: EntryFacts; sha256: string };

/** Who and when, with the version's number. */
export type Stamp = { version: number; actor: string; at: Date };

/** Rows per statement: 19 parameters a row for an insert; one parameter per batch for the others. */
const BATCH = 1_000;

const factColumns = ({ externalId, facts, sha256 }: EntryWrite) => ({
  external_id: externalId,
  type: facts.type,
  names: JSON.stringify(facts.names),
  dates_of_birth: JSON.stringify(facts.datesOfBirth),
  countries: JSON.stringify(facts.countries),
  identifiers: JSON.stringify(facts.identifiers),
  reason: facts.reason,
  severity: facts.severity,
  expires_at: facts.expiresAt,
  sha256,
});

export async function insertEntries(trx: TenantTransaction, organizationId: string, watchlistId: string, writes: EntryWrite[], stamp: Stamp): Promise<void> {
  for (let at = 0; at < writes.length; at += BATCH) {
    const rows = writes.slice(at, at + BATCH).map((write) => ({
      organization_id: organizationId,
      watchlist_id: watchlistId,
      id: write.id,
      ...factColumns(write),
      added_by: stamp.actor,
      added_at: stamp.at,
      updated_by: stamp.actor,
      updated_at: stamp.at,
      version: stamp.version,
    }));
    await trx.insertInto('watchlist_entries').values(rows).execute();
  }
}

/** Each entry's facts replaced by its write's; it keeps its id and who added it when. */
export async function updateEntries(trx: TenantTransaction, writes: EntryWrite[], stamp: Stamp): Promise<void> {
  for (let at = 0; at < writes.length; at += BATCH) {
    const rows = writes
      .slice(at, at + BATCH)
      .map((write) => ({ id: write.id, ...factColumns(write), expires_at: write.facts.expiresAt?.toISOString() ?? null }));
    await sql`
      UPDATE watchlist_entries AS e
         SET external_id = v.external_id, type = v.type, names = v.names::jsonb, dates_of_birth = v.dates_of_birth::jsonb, countries = v.countries::jsonb,
             identifiers = v.identifiers::jsonb, reason = v.reason, severity = v.severity, expires_at = v.expires_at, sha256 = v.sha256,
             version = ${stamp.version}, updated_by = ${stamp.actor}, updated_at = ${stamp.at}
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(id text, external_id text, type text, names text, dates_of_birth text,
             countries text, identifiers text, reason text, severity text, expires_at timestamptz, sha256 text)
       WHERE e.id = v.id`.execute(trx);
  }
}

/** The entries marked removed: they stop matching and leave the counts, and stay for the versions that held them. */
export async function removeEntries(trx: TenantTransaction, ids: string[], stamp: Stamp): Promise<void> {
  for (let at = 0; at < ids.length; at += BATCH) {
    await sql`
      UPDATE watchlist_entries SET removed_at = ${stamp.at}, version = ${stamp.version}, updated_by = ${stamp.actor}, updated_at = ${stamp.at}
       WHERE id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids.slice(at, at + BATCH))}::jsonb)) AND removed_at IS NULL`.execute(trx);
  }
}
