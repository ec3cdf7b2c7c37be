/**
 * Every query this process sends to a database while the tap is open, as the drivers send it:
 * each call of `pg.Client#query` or of PGlite's `query` or `exec` is one round trip (one simple
 * query, which may hold several statements, or one parse-bind-execute). The drivers still run
 * every query; the tap only writes down what went. Close it before the test ends.
 */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** One query as sent: its text, and the name it was sent under when the driver prepared it (pg). */
export type SentQuery = { text: string; parameters: number; name?: string };

export type StatementTap = { sent: SentQuery[]; close(): void };

export function tapStatements(): StatementTap {
  const sent: SentQuery[] = [];
  const restore = [
    wrap(pg.Client.prototype, 'query', (config: unknown, values?: unknown) => {
      if (typeof config === 'string') sent.push({ text: config, parameters: Array.isArray(values) ? values.length : 0 });
      else if (config && typeof config === 'object' && 'text' in config) {
        const { text, name, values: own } = config as { text: string; name?: string; values?: unknown[] };
        sent.push({ text, parameters: own?.length ?? (Array.isArray(values) ? values.length : 0), ...(name && { name }) });
      }
    }),
    wrap(PGlite.prototype, 'query', (text: unknown, values?: unknown) =>
      sent.push({ text: String(text), parameters: Array.isArray(values) ? values.length : 0 }),
    ),
    wrap(PGlite.prototype, 'exec', (text: unknown) => sent.push({ text: String(text), parameters: 0 })),
  ];
  return { sent, close: () => restore.forEach((undo) => undo()) };
}

/** Puts `note` in front of `target[method]` and answers how to take it away again. */
function wrap(target: object, method: string, note: (...args: never[]) => unknown): () => void {
  const owner = target as Record<string, (...args: unknown[]) => unknown>;
  const had = Object.hasOwn(owner, method);
  const original = owner[method] as (...args: unknown[]) => unknown;
  owner[method] = function (this: unknown, ...args: unknown[]) {
    (note as (...args: unknown[]) => unknown)(...args);
    return original.apply(this, args);
  };
  return () => {
    if (had) owner[method] = original;
    else delete owner[method];
  };
}
