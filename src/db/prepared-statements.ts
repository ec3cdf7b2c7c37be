/**
 * Prepared statements: PostgreSQL parses and plans a named statement once per connection and
 * reuses its plan; Kysely sends every statement unnamed, so it would be parsed and planned again on
 * every call. On the statements every request runs (the tenant settings, a row by id, the rules)
 * naming them halved PostgreSQL's CPU per statement here. Two ways in, one for each protocol:
 *
 * - A statement with bind parameters is named by the pool's wrapper (`statementName`) from its
 *   text, as Kysely sends it. Invariants: only statements with 1 to 64 parameters (a multi-row
 *   INSERT's text changes with its row count and would fill each connection with plans used once),
 *   and never one that returns `*`, whose prepared result type a migration could change under a
 *   running server ("cached plan must not change result type").
 * - A simple query (no parameters; it may hold several statements: how the tenant transaction
 *   sends its final writes with COMMIT) runs a JSON statement by name as `EXECUTE name(literal)`
 *   (`simpleQueryOf`), and lists the names it calls in a leading comment, the prepare header.
 *   Invariants: the session's wrapper PREPAREs what the header names and the session has not
 *   prepared yet, in a query of its own, before the query (`runPreparing`); a name stands for one
 *   text for the life of the process; what a session has prepared follows what the server says.
 *
 * DATABASE_PREPARE_STATEMENTS=false (a pooler that keeps no session): neither; each statement is
 * sent as its full text.
 */
import { createHash } from 'node:crypto';
import type { RawBuilder } from 'kysely';
import type pg from 'pg';
import { joined, preparedName, type SqlText, sqlText, withBoundValue, withLiteralValue } from './sql-text.ts';

const MAX_PARAMETERS = 64;
const RETURNS_ALL_COLUMNS = /\bselect\s+\*|\.\*|\breturning\s+\*/i;

/**
 * Each text's name (null: never named), remembered: hashing the text on every call was 1.3% of the
 * service's time under load. The texts are few (one per query shape), the bound is for safety.
 */
const names = new Map<string, string | null>();
const MAX_REMEMBERED = 2_000;

export function statementName(text: string, parameterCount: number): string | undefined {
  if (parameterCount === 0 || parameterCount > MAX_PARAMETERS) return undefined;
  let name = names.get(text);
  if (name === undefined) {
    name = RETURNS_ALL_COLUMNS.test(text) ? null : `gh_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    if (names.size >= MAX_REMEMBERED) names.clear();
    names.set(text, name);
  }
  return name ?? undefined;
}

/**
 * The pool as Kysely sees it: each client names the statements it may (Kysely calls only query and
 * release), and prepares what a simple query's header asks for (see preparedCall). A simple query
 * of several statements answers with its last statement's result, whose rows Kysely then reads
 * (pg answers an array of results, in which Kysely finds no rows).
 */
export function preparingPool(pool: pg.Pool) {
  const preparedBy = sessionSets<pg.PoolClient>();
  return {
    connect: async () => {
      const client = await pool.connect();
      const session = preparedBy(client);
      return {
        query: async (text: unknown, values?: unknown[]) => {
          const name = typeof text === 'string' ? statementName(text, values?.length ?? 0) : undefined;
          // Only a simple query (no parameters) may carry a prepare header.
          const result: pg.QueryResult | pg.QueryResult[] = name
            ? await client.query({ name, text: text as string, values: values ?? [] })
            : values && values.length > 0
              ? await client.query(text as string, values)
              : await runPreparing(text as string, session, (statement) => client.query(statement));
          return Array.isArray(result) ? result.at(-1) : result;
        },
        release: (error?: Error | boolean) => client.release(error),
      };
    },
    end: () => pool.end(),
  };
}

/**
 * A statement whose one value, `$1`, is JSON text: how writes at commit are written (see
 * db/write-at-commit.ts). With COMMIT it runs by name, or as full text with the value as a
 * literal (`simpleQueryOf`); sent alone, with a bind parameter (`sentAlone`).
 */
export type JsonStatement = { text: SqlText; json: string };

/** The statement to send alone, its value a bind parameter: named by the pool's wrapper like any other. */
export function sentAlone<Row>({ text, json }: JsonStatement): RawBuilder<Row> {
  return withBoundValue<Row>(text, json);
}

/*
 * Why the final writes run by name: a simple query takes no bind parameters, so the statements
 * sent with COMMIT were parsed, rewritten for row-level security and planned on every call: about
 * a quarter of PostgreSQL's CPU for a transaction that records a screening and opens its case,
 * replayed on one connection (2.4 → 1.8 ms). PREPARE outlives a rolled-back transaction, so a
 * statement stays prepared even when the transaction that first needed it fails.
 */
const HEADER = '/*prepare ';
const preparedTexts = new Map<string, SqlText>();
const preparedNames = new Map<string, string>();

/**
 * `statements` and then `after` (COMMIT…) as one simple query: each statement by name when the
 * session prepares what the header names (`named`), else as its full text with its value written in.
 */
export function simpleQueryOf(statements: readonly JsonStatement[], after: readonly SqlText[], named: boolean): SqlText {
  if (!named) return joined([...statements.map(({ text, json }) => withLiteralValue(text, json)), ...after], '; ');
  const calls = statements.map(({ text, json }) => preparedCall(text, json));
  return withPrepareHeader(
    calls.map(({ name }) => name),
    joined([...calls.map(({ call }) => call), ...after], '; '),
  );
}

/** `EXECUTE` of `text` (one parameter, `$1`) with `json` as its literal argument, and the name to put in the query's header. */
export function preparedCall(text: SqlText, json: string): { name: string; call: SqlText } {
  let name = preparedNames.get(text.text);
  if (!name) {
    name = `gh_x_${createHash('sha1').update(text.text).digest('hex').slice(0, 24)}`;
    preparedNames.set(text.text, name);
    preparedTexts.set(name, text);
  }
  return { name, call: sqlText`EXECUTE ${preparedName(name)}(${json})` };
}

/** The header that asks the session for `names` before `query` runs. */
export const withPrepareHeader = (names: readonly string[], query: SqlText): SqlText =>
  names.length === 0 ? query : sqlText`/*prepare ${joined(names.map(preparedName), ' ')}*/ ${query}`;

/** What each session has prepared, by the object that stands for it (a pooled pg client, a PGlite instance). */
export function sessionSets<Session extends object>(): (session: Session) => Set<string> {
  const sets = new WeakMap<Session, Set<string>>();
  return (session) => {
    let set = sets.get(session);
    if (!set) sets.set(session, (set = new Set()));
    return set;
  };
}

/**
 * Runs a simple query in a session, first preparing what its header names and the session has
 * not prepared yet. The session's set follows the server: a PREPARE the server says it already
 * has (42P05) counts as prepared, and when the server says a named statement is missing (26000:
 * something deallocated it) the query's names are forgotten. Either way that one transaction
 * fails and the session's next prepares what it needs.
 */
export async function runPreparing<R>(query: string, prepared: Set<string>, run: (statement: string) => Promise<R>): Promise<R> {
  const names = headerNames(query);
  for (const name of names) {
    const text = preparedTexts.get(name);
    if (prepared.has(name) || text === undefined) continue;
    try {
      await run(sqlText`PREPARE ${preparedName(name)} AS ${text}`.text);
    } catch (error) {
      if (sqlStateOf(error) !== DUPLICATE_PREPARED_STATEMENT) throw error;
    }
    prepared.add(name);
  }
  try {
    return await run(query);
  } catch (error) {
    if (sqlStateOf(error) === UNDEFINED_PREPARED_STATEMENT) for (const name of names) prepared.delete(name);
    throw error;
  }
}

const DUPLICATE_PREPARED_STATEMENT = '42P05';
const UNDEFINED_PREPARED_STATEMENT = '26000';
const sqlStateOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

function headerNames(query: string): string[] {
  // Only a query that starts with the header is searched for its end: most have none.
  if (!query.startsWith(HEADER)) return [];
  const end = query.indexOf('*/');
  return end > 0 ? query.slice(HEADER.length, end).split(' ') : [];
}
