/**
 * Rows a transaction writes with its last statement (see collectAtCommit in tenant.ts): what it
 * records about itself (audit and outbox events elsewhere, and the screenings and cases nothing
 * in the transaction reads back). On PostgreSQL that statement travels with COMMIT, so these
 * writes cost the request no round trip of its own. Tables are written in the order they were
 * first given rows, so a row's references to an earlier table are in place when it goes in.
 */
import { type RawBuilder, sql } from 'kysely';
import { collectAtCommit, type SqlValue, type TenantTransaction } from './tenant.ts';

/** The transaction's rows for `table`, to push onto; written just before it commits. */
export function rowsAtCommit(trx: TenantTransaction, table: string): Record<string, unknown>[] {
  return collectAtCommit(trx, Symbol.for(`rows of ${table}`), (rows: Record<string, unknown>[], value) => insertJsonRows(table, rows, value));
}

/**
 * An INSERT of many rows as one value: the rows travel as a JSON array that
 * jsonb_populate_recordset reads back into the table's own row type, so a thousand rows are one
 * parameter, or one literal in the query that carries COMMIT (a simple query takes no
 * parameters). A jsonb column takes its nested JSON as it is; every other value is JSON text, a
 * number or a boolean, cast to its column's type. Every row has the first row's keys.
 */
export function insertJsonRows(table: string, rows: readonly Record<string, unknown>[], value: SqlValue): RawBuilder<unknown> {
  const columns = Object.keys(rows[0] ?? {});
  if (columns.length === 0) throw new Error(`insertJsonRows: no rows, or rows without columns, for ${table}`);
  return sql`INSERT INTO ${sql.table(table)} (${sql.join(columns.map((column) => sql.ref(column)))})
    SELECT ${sql.join(columns.map((column) => sql.ref(`incoming.${column}`)))}
      FROM jsonb_populate_recordset(NULL::${sql.table(table)}, ${value(JSON.stringify(rows))}::jsonb) AS incoming`;
}
