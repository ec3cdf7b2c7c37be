/**
 * Write at commit: what a tenant transaction collects while it works and writes with its last
 * query, which carries COMMIT. A request's audit events, outbox events, screenings and new cases
 * cost it no round trip of their own, and the audit chain's head is locked only while that query
 * runs (see the audit append's `last` below, and BENCHMARKS.md).
 *
 * Invariants:
 * - Collected writes are sent only with COMMIT, in the same query; a transaction that fails
 *   before then sends none of them.
 * - They go in the order their collections were first asked for, with `last` ones after the rest,
 *   so a row's references to a table first given rows earlier are in place when it goes in. A row
 *   written earlier in the transaction can reference one written at commit only through a foreign
 *   key checked at commit (DEFERRABLE INITIALLY DEFERRED).
 * - Until COMMIT the rows are not in their tables, so the transaction cannot read them back. It is
 *   not allowed to try: a statement that reads, updates or deletes a table with rows waiting is
 *   refused with RowsWaitingForCommit, naming the table, and the transaction then cannot commit
 *   even if the error was caught. (Inserting more rows into such a table is allowed.) What the
 *   guard sees is the tables a statement names; a function or trigger reading one is not seen.
 */
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import type { JsonStatement } from './prepared-statements.ts';

/** A statement that would not have seen rows the transaction holds for COMMIT. */
export class RowsWaitingForCommit extends Error {
  constructor(readonly table: string) {
    super(
      `"${table}" has rows this transaction writes at commit (db/write-at-commit.ts), so a statement of the same transaction ` +
        `cannot read, update or delete it before then: it would not see them. Write them now instead, or use what the transaction holds.`,
    );
    this.name = 'RowsWaitingForCommit';
  }
}

type Collection = { items: unknown[]; last: boolean; tables: readonly string[]; statement(items: unknown[]): JsonStatement };

export type CollectOptions = {
  /** Written after the collections that are not (the audit append). */
  last?: boolean;
  /** The tables the statement writes: until COMMIT, statements naming them are refused while items wait. */
  tables?: readonly string[];
};

/** One transaction's writes at commit, by collector's key, in the order first asked for. */
export class WritesAtCommit {
  readonly #collections = new Map<symbol, Collection>();
  #refused: RowsWaitingForCommit | undefined;

  /** The items under `key`, to push onto; `statement` writes them with COMMIT. */
  collect<T>(key: symbol, statement: (items: T[]) => JsonStatement, { last = false, tables = [] }: CollectOptions = {}): T[] {
    let collection = this.#collections.get(key);
    if (!collection) {
      collection = { items: [], last, tables, statement: statement as Collection['statement'] };
      this.#collections.set(key, collection);
    }
    return collection.items as T[];
  }

  /** The statements to send with COMMIT; throws the refusal if a statement was refused, so that the transaction rolls back. */
  statements(): JsonStatement[] {
    if (this.#refused) throw this.#refused;
    const waiting = [...this.#collections.values()].filter(({ items }) => items.length > 0);
    return [...waiting.filter((c) => !c.last), ...waiting.filter((c) => c.last)].map(({ items, statement }) => statement(items));
  }

  /** Installed on the transaction's queries: refuses a statement naming a table with rows waiting (see the invariants above). */
  readonly guard: KyselyPlugin = {
    transformQuery: ({ node }: PluginTransformQueryArgs): RootOperationNode => {
      const waiting = this.#waitingTables();
      if (waiting.size > 0) {
        const table = firstNamed(node, waiting);
        if (table !== undefined) throw (this.#refused = new RowsWaitingForCommit(table));
      }
      return node;
    },
    transformResult: async ({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => result,
  };

  #waitingTables(): ReadonlySet<string> {
    let tables: Set<string> | undefined;
    for (const { items, tables: written } of this.#collections.values()) {
      if (items.length > 0) for (const table of written) (tables ??= new Set()).add(table);
    }
    return tables ?? NONE;
  }
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Nodes that name no table to look for: values (their contents are data, and a screening's record
 * can be thousands of nodes deep), names, operators, and references (`cases.id`), whose table is
 * one the statement names in its FROM, JOIN or target, or an outer query's.
 */
const LEAVES = new Set(['ValueNode', 'PrimitiveValueListNode', 'IdentifierNode', 'ColumnNode', 'OperatorNode', 'ReferenceNode']);

/**
 * The first of `tables` the query names where it reads, updates or deletes: a table node
 * anywhere but an INSERT's target, or a raw fragment's `FROM`, `JOIN` or `UPDATE` of it.
 */
function firstNamed(node: unknown, tables: ReadonlySet<string>): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = firstNamed(item, tables);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const kind = (node as { kind?: unknown }).kind;
  if (LEAVES.has(kind as string)) return undefined;
  if (kind === 'TableNode') {
    const name = (node as { table: { identifier: { name: string } } }).table.identifier.name;
    return tables.has(name) ? name : undefined;
  }
  if (kind === 'RawNode') {
    const { sqlFragments, parameters } = node as { sqlFragments: readonly string[]; parameters: readonly unknown[] };
    for (const table of tables) if (sqlFragments.some((fragment) => rawReference(table).test(fragment))) return table;
    return firstNamed(parameters, tables);
  }
  for (const key of Object.keys(node)) {
    if (kind === 'InsertQueryNode' && key === 'into') continue;
    const found = firstNamed((node as Record<string, unknown>)[key], tables);
    if (found !== undefined) return found;
  }
  return undefined;
}

const rawReferences = new Map<string, RegExp>();
/** `FROM t`, `JOIN t`, `UPDATE t` (quoted or not, `ONLY` allowed) in SQL written by hand. */
function rawReference(table: string): RegExp {
  let pattern = rawReferences.get(table);
  if (!pattern) {
    const name = table.replace(/[^a-z0-9_]/gi, (c) => `\\${c}`);
    pattern = new RegExp(`\\b(?:from|join|update)\\s+(?:only\\s+)?(?:"${name}"|${name}\\b)`, 'i');
    rawReferences.set(table, pattern);
  }
  return pattern;
}
