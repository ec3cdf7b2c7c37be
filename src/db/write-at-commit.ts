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
 * - Until COMMIT the rows are not in their tables, so the transaction cannot read them back.
 */
import type { JsonStatement } from './prepared-statements.ts';

type Collection = { items: unknown[]; last: boolean; statement(items: unknown[]): JsonStatement };

export type CollectOptions = {
  /** Written after the collections that are not (the audit append). */
  last?: boolean;
};

/** One transaction's writes at commit, by collector's key, in the order first asked for. */
export class WritesAtCommit {
  readonly #collections = new Map<symbol, Collection>();

  /** The items under `key`, to push onto; `statement` writes them with COMMIT. */
  collect<T>(key: symbol, statement: (items: T[]) => JsonStatement, { last = false }: CollectOptions = {}): T[] {
    let collection = this.#collections.get(key);
    if (!collection) {
      collection = { items: [], last, statement: statement as Collection['statement'] };
      this.#collections.set(key, collection);
    }
    return collection.items as T[];
  }

  /** The statements to send with COMMIT. */
  statements(): JsonStatement[] {
    const waiting = [...this.#collections.values()].filter(({ items }) => items.length > 0);
    return [...waiting.filter((c) => !c.last), ...waiting.filter((c) => c.last)].map(({ items, statement }) => statement(items));
  }
}
