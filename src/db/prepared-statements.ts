/**
 * Named prepared statements for PostgreSQL. Kysely sends every statement unnamed, so PostgreSQL
 * parses and plans it again on every call; a named one is parsed once per connection and its plan
 * reused. On the statements every request runs (the tenant settings, a row by id, the rules) that
 * halved PostgreSQL's CPU per statement here.
 *
 * Named: statements with few parameters (one row read or written); a multi-row INSERT's text
 * changes with its row count and would only fill each connection with plans used once. Not
 * named: statements without parameters (sent as simple queries, which may hold several
 * statements: the tenant transaction's BEGIN and settings go as one), and anything that returns
 * `*`, whose prepared result type a migration could change under a running server ("cached plan
 * must not change result type").
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';

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
 * release). A simple query of several statements answers with its last statement's result, whose
 * rows Kysely then reads (pg answers an array of results, in which Kysely finds no rows).
 */
export function preparingPool(pool: pg.Pool) {
  return {
    connect: async () => {
      const client = await pool.connect();
      return {
        query: async (text: unknown, values?: unknown[]) => {
          const name = typeof text === 'string' ? statementName(text, values?.length ?? 0) : undefined;
          const result: pg.QueryResult | pg.QueryResult[] = await (name ? client.query({ name, text: text as string, values: values ?? [] }) : client.query(text as string, values));
          return Array.isArray(result) ? result.at(-1) : result;
        },
        release: (error?: Error | boolean) => client.release(error),
      };
    },
    end: () => pool.end(),
  };
}
