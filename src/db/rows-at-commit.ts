/**
 * Rows a transaction writes at commit (see db/write-at-commit.ts for the invariants): what it
 * records about itself (audit and outbox events elsewhere, and the screenings and cases nothing
 * in the transaction reads back). Tables are written in the order they were first given rows, so
 * a row's references to an earlier table are in place when it goes in; until COMMIT the
 * transaction's statements may not read, update or delete a table that has rows waiting.
 */
import type { JsonStatement } from './prepared-statements.ts';
import { identifier, joined, type SqlText, sqlText } from './sql-text.ts';
import { collectAtCommit, type TenantTransaction } from './tenant.ts';

/** The transaction's rows for `table`, to push onto; written with COMMIT. */
export function rowsAtCommit(trx: TenantTransaction, table: string): Record<string, unknown>[] {
  return collectAtCommit(trx, Symbol.for(`rows of ${table}`), (rows: Record<string, unknown>[]) => insertJsonRows(table, rows), { tables: [table] });
}

/**
 * An INSERT of many rows as one value: the rows travel as a JSON array that
 * jsonb_populate_recordset reads back into the table's own row type, so a thousand rows are one
 * parameter, or one literal in the query that carries COMMIT. A jsonb column takes its nested
 * JSON as it is; every other value is JSON text, a number or a boolean, cast to its column's type.
 * Every row has the first row's keys.
 */
export function insertJsonRows(table: string, rows: readonly Record<string, unknown>[]): JsonStatement {
  const columns = Object.keys(rows[0] ?? {});
  if (columns.length === 0) throw new Error(`insertJsonRows: no rows, or rows without columns, for ${table}`);
  return { text: insertText(table, columns), json: JSON.stringify(rows) };
}

/**
 * The statement's text, made once per table and column list: building it from Kysely's
 * identifier nodes on every call (two per column) was about 2% of the service's time under the
 * api benchmark.
 *
 * The INSERT returns a row for each it writes, counted in one: Citus runs an INSERT … SELECT
 * from a function on the coordinator and sends the rows to the shards by COPY, which PostgreSQL
 * refuses under row-level security, unless the INSERT has RETURNING; then it writes them to the
 * shards with INSERT … SELECT, checked by the policies. The count keeps PostgreSQL from sending
 * every row back.
 */
const insertTexts = new Map<string, SqlText>();

function insertText(table: string, columns: string[]): SqlText {
  const key = `${table}(${columns.join(',')})`;
  let text = insertTexts.get(key);
  if (!text) {
    const list = columns.map(identifier);
    const incoming = list.map((column) => sqlText`incoming.${column}`);
    text = sqlText`WITH written AS (INSERT INTO ${identifier(table)} (${joined(list, ', ')}) SELECT ${joined(incoming, ', ')}
      FROM jsonb_populate_recordset(NULL::${identifier(table)}, $1::jsonb) AS incoming RETURNING NULL) SELECT count(*) FROM written`;
    insertTexts.set(key, text);
  }
  return text;
}
