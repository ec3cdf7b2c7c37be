/**
 * SQL text assembled by hand: the one place. Everywhere else SQL is built by Kysely, which sends
 * values as bind parameters. The tenant transaction sends simple queries instead (BEGIN with its
 * settings, its final writes with COMMIT: one round trip each, see db/tenant.ts), and a simple
 * query takes no parameters, so there values must become text. They become text here only.
 *
 * Invariants: SqlText can only be made in this file, so a query sent as text was built here; a
 * value interpolated into `sqlText` becomes a literal unless it is already SqlText, so a value
 * forgotten unwrapped is quoted, never spliced; names become text only through `identifier` or
 * `preparedName`. A value that cannot be sent exactly (NUL, a lone surrogate, NaN) is refused
 * with an error, never altered. test/db/sql-text.test.ts checks the quoting against the database.
 */
import { type QueryExecutorProvider, type QueryResult, type RawBuilder, sql } from 'kysely';

/** SQL text made here: what a query sent as text is built from. Not constructible elsewhere (the class is not exported). */
class Text {
  // A private field makes the type nominal: an object of the same shape made elsewhere is not an SqlText.
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: never read; its presence is what makes the type nominal
  readonly #madeHere = true;
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}
export type SqlText = Text;

/** What `literal` writes: a scalar. Arrays, objects and dates are refused: send JSON text instead. */
export type SqlValue = string | number | bigint | boolean | null;

/**
 * A value as a literal. A string is written `E'…'` with backslashes and quotes doubled, which reads
 * the same whatever standard_conforming_strings says; a number as its digits (in parentheses when
 * negative, so that `-` after `-` cannot start a comment); booleans and null as keywords.
 */
export function literal(value: SqlValue): SqlText {
  switch (typeof value) {
    case 'string':
      return new Text(stringLiteral(value));
    case 'number':
      if (!Number.isFinite(value)) throw new Error(`an SQL literal cannot be ${value}`);
      return new Text(value < 0 ? `(${value})` : String(value));
    case 'bigint':
      return new Text(value < 0n ? `(${value})` : String(value));
    case 'boolean':
      return new Text(value ? 'TRUE' : 'FALSE');
    default:
      if (value === null) return new Text('NULL');
      throw new Error(`an SQL literal is a string, number, boolean or null, not ${Object.prototype.toString.call(value)}`);
  }
}

function stringLiteral(text: string): string {
  refuseUnsendable(text, 'literal');
  return `E'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/** PostgreSQL cannot store NUL in text, and a lone surrogate would reach it as U+FFFD: either way not the value given. */
function refuseUnsendable(text: string, what: string) {
  if (text.includes('\0')) throw new Error(`an SQL ${what} cannot contain a NUL character`);
  if (LONE_SURROGATE.test(text)) throw new Error(`an SQL ${what} cannot contain a lone surrogate: it would be sent as U+FFFD`);
}
// With the u flag, a surrogate matches only when it is not half of a pair.
const LONE_SURROGATE = /\p{Cs}/u;

/** PostgreSQL keeps the first 63 bytes of a name (NAMEDATALEN - 1) and drops the rest with only a notice. */
const MAX_NAME_BYTES = 63;

/** A name (table, column, role) as a quoted identifier, as PostgreSQL's quote_ident would quote it always. */
export function identifier(name: string): SqlText {
  if (name.length === 0) throw new Error('an SQL identifier cannot be empty');
  refuseUnsendable(name, 'identifier');
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) throw new Error(`an SQL identifier has at most ${MAX_NAME_BYTES} bytes: ${name.slice(0, 80)}`);
  return new Text(`"${name.replaceAll('"', '""')}"`);
}

/**
 * A name this code made (a prepared statement's `gh_x_…`), unquoted: lower-case letters, digits
 * and underscores need no quotes, and it can stand in a comment (the prepare header) as it is.
 */
export function preparedName(name: string): SqlText {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a prepared statement's name: ${name.slice(0, 80)}`);
  return new Text(name);
}

/**
 * A run-time parameter's name as SET takes it (`role`, `statement_timeout`, `app.organization_id`):
 * lower-case words, one dot at most for a custom one. SET takes no quoted name for a dotted one.
 */
export function settingName(name: string): SqlText {
  if (!/^[a-z_][a-z0-9_]{0,62}(\.[a-z_][a-z0-9_]{0,62})?$/.test(name)) throw new Error(`not a setting's name: ${name.slice(0, 80)}`);
  return new Text(name);
}

/** Statement text: each interpolated SqlText goes in as it is, every other value as a `literal`. */
export function sqlText(strings: TemplateStringsArray, ...values: readonly (SqlText | SqlValue)[]): SqlText {
  let text = strings[0] as string;
  for (let i = 0; i < values.length; i++) {
    const value = values[i] as SqlText | SqlValue;
    text += (value instanceof Text ? value.text : literal(value).text) + (strings[i + 1] as string);
  }
  return new Text(text);
}

/** Pieces joined by a separator: `'; '` makes several statements one simple query (it answers the last one's result). */
export function joined(pieces: readonly SqlText[], separator: ', ' | ' ' | '; '): SqlText {
  return new Text(pieces.map((piece) => piece.text).join(separator));
}

/**
 * A statement of one parameter, `$1`, with its value written in as a literal: how a simple query
 * carries it. The statement must hold `$1` exactly once and no other parameter.
 */
export function withLiteralValue(statement: SqlText, value: SqlValue): SqlText {
  const [before, after] = aroundParameter(statement);
  return new Text(`${before}${literal(value).text}${after}`);
}

/** The same statement with its value as a bind parameter, for Kysely to send (prepared by name where the driver prepares). */
export function withBoundValue<Row>(statement: SqlText, value: unknown): RawBuilder<Row> {
  const [before, after] = aroundParameter(statement);
  return sql<Row>`${sql.raw(before)}${value}${sql.raw(after)}`;
}

function aroundParameter({ text }: SqlText): [string, string] {
  const parameters = text.match(/\$\d+/g) ?? [];
  if (parameters.length !== 1 || parameters[0] !== '$1') throw new Error(`not a statement of one parameter, $1, once: ${text.slice(0, 80)}`);
  const at = text.indexOf('$1');
  return [text.slice(0, at), text.slice(at + 2)];
}

/** Sends the text as it is: as a simple query, which may hold several statements and answers the last one's result. */
export function runText<Row>(text: SqlText, on: QueryExecutorProvider): Promise<QueryResult<Row>> {
  return sql.raw<Row>(text.text).execute(on);
}
