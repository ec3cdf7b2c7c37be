/**
 * Every query this process sends to a database while the tap is open, as the drivers send it:
 * each call of `pg.Client#query` or of PGlite's `query` or `exec` is one round trip (one simple
 * query, which may hold several statements, or one parse-bind-execute). The drivers still run
 * every query; the tap only writes down what went. Close it before the test ends.
 */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** One query as sent: its text, the name it was sent under when the driver prepared it (pg), and which connection sent it (a number per client). */
export type SentQuery = { text: string; parameters: number; name?: string; connection: number };

const connections = new WeakMap<object, number>();
let lastConnection = 0;
const connectionOf = (client: unknown) => {
  const key = client as object;
  if (!connections.has(key)) connections.set(key, ++lastConnection);
  return connections.get(key) as number;
};

export type StatementTap = { sent: SentQuery[]; close(): void };

export function tapStatements(): StatementTap {
  const sent: SentQuery[] = [];
  const restore = [
    wrap(pg.Client.prototype, 'query', function (this: unknown, config: unknown, values?: unknown) {
      const connection = connectionOf(this);
      if (typeof config === 'string') sent.push({ text: config, parameters: Array.isArray(values) ? values.length : 0, connection });
      else if (config && typeof config === 'object' && 'text' in config) {
        const { text, name, values: own } = config as { text: string; name?: string; values?: unknown[] };
        sent.push({ text, parameters: own?.length ?? (Array.isArray(values) ? values.length : 0), connection, ...(name && { name }) });
      }
    }),
    wrap(PGlite.prototype, 'query', function (this: unknown, text: unknown, values?: unknown) {
      sent.push({ text: String(text), parameters: Array.isArray(values) ? values.length : 0, connection: connectionOf(this) });
    }),
    wrap(PGlite.prototype, 'exec', function (this: unknown, text: unknown) {
      sent.push({ text: String(text), parameters: 0, connection: connectionOf(this) });
    }),
  ];
  return { sent, close: () => restore.forEach((undo) => undo()) };
}

/** A simple query's statements, split at the semicolons outside quoted literals (E'…' as sql-text writes them). */
export function splitStatements(text: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '\\') i++;
      else if (char === "'" && text[i + 1] === "'") i++;
      else if (char === "'") quoted = false;
    } else if (char === "'") quoted = true;
    else if (char === ';') {
      statements.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  statements.push(text.slice(start).trim());
  return statements.filter((statement) => statement.length > 0);
}

/** Puts `note` in front of `target[method]` and answers how to take it away again. */
function wrap(target: object, method: string, note: (this: unknown, ...args: never[]) => unknown): () => void {
  const owner = target as Record<string, (...args: unknown[]) => unknown>;
  const had = Object.hasOwn(owner, method);
  const original = owner[method] as (...args: unknown[]) => unknown;
  owner[method] = function (this: unknown, ...args: unknown[]) {
    (note as (this: unknown, ...args: unknown[]) => unknown).apply(this, args);
    return original.apply(this, args);
  };
  return () => {
    if (had) owner[method] = original;
    else delete owner[method];
  };
}
