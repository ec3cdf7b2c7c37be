/**
 * A watchlist's entries in bulk: the import (`PUT …/entries`, a JSON body or a CSV file) and the
 * export that imports back unchanged. Registered in a scope of their own: their JSON bodies are
 * parsed as they stream in (50,000 entries are never held twice), and CSV is read as text.
 */
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { ReadTrail } from '../../audit/read-trail.ts';
import { auditContextOf } from '../../http/audit-context.ts';
import { AppError } from '../../http/errors.ts';
import type { Api } from '../../http/feature.ts';
import { requireUtf8 } from '../../http/json-body.ts';
import { parseJsonStream } from '../../http/json-stream.ts';
import { SHRINK_MIN_REMOVALS } from '../../shrink-limit.ts';
import { entriesFromCsv, entriesToCsv } from './entry-csv.ts';
import type { EntryBody } from './entry-input.ts';
import type { ImportSource } from './import-input.ts';
import {
  CSV_FORMAT,
  ExportQuery,
  IMPORT_BODY_LIMIT_BYTES,
  IMPORT_RUNNING_MS,
  IMPORT_SHRINK_LIMIT_PERCENT,
  ImportCsvBody,
  ImportJsonBody,
  ImportQuery,
  ImportRefusedResponse,
  ImportResultSchema,
  MAX_IMPORT_ENTRIES,
  ShrinkRefusedResponse,
} from './import-schemas.ts';
import { presentImport } from './present.ts';
import type { WatchlistService } from './service.ts';
import { WatchlistParams } from './watchlist-schemas.ts';

const TAGS = ['watchlists'];
const CSV_TYPE = 'text/csv; charset=utf-8';

export function registerImportRoutes(api: Api, service: WatchlistService, reads: ReadTrail) {
  api.removeContentTypeParser('application/json');
  api.addContentTypeParser('application/json', (request: FastifyRequest, payload: Readable) => {
    requireUtf8(request.headers['content-type']);
    return parseJsonStream(payload, IMPORT_BODY_LIMIT_BYTES);
  });
  api.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: IMPORT_BODY_LIMIT_BYTES }, async (request: FastifyRequest, body: string | Buffer) => {
    requireUtf8(request.headers['content-type'], (charset) => `The CSV file is declared as charset=${charset}; send it encoded as UTF-8.`);
    return String(body);
  });

  api.put(
    '/watchlists/:id/entries',
    {
      config: { tier: 'defense', permission: 'operate', idempotent: true, longRunningMs: IMPORT_RUNNING_MS, problems: ['watchlist_shrink_refused'] },
      schema: {
        tags: TAGS,
        summary: 'Import a watchlist’s entries in bulk (JSON or CSV)',
        description: [
          `A JSON body (\`{"entries": [...]}\`, each as \`POST …/entries\` takes it) or a CSV file (\`Content-Type: text/csv\`): up to ${MAX_IMPORT_ENTRIES.toLocaleString('en')} entries`,
          `and ${IMPORT_BODY_LIMIT_BYTES / 2 ** 20} MiB (larger: 413). ${CSV_FORMAT}`,
          'All or nothing: the import is checked whole first, and one bad row refuses it with every problem in `errors`, each with a JSON Pointer',
          '(`/entries/17/countries/0`) and, in a CSV file, its `row` and `column`. Rows are matched to entries by `external_id` (a row without one, to an',
          'entry without one with the same facts), and may not repeat. A matched entry whose facts (SHA-256) are the same is unchanged and not written;',
          'one whose facts differ is changed in place (it keeps its id); a row matching none is added (its `expires_at`, if any, in the future).',
          '`mode=replace` also removes every entry the import does not hold, within a shrink limit: it may remove',
          `${IMPORT_SHRINK_LIMIT_PERCENT}% of the watchlist's entries, or ${SHRINK_MIN_REMOVALS} when that is more, never all; more answers 409 \`watchlist_shrink_refused\``,
          'with the counts, and `allow_shrink=true` lifts the limit for that request. What changed is one version of the watchlist (`entries_upserted`',
          'or `entries_replaced`), written in one transaction; an import that changes nothing makes none (`version: null`). Audited; emits',
          '`watchlist.changed`. Send an `Idempotency-Key` to retry safely.',
        ].join(' '),
        params: WatchlistParams,
        querystring: ImportQuery,
        body: { content: { 'application/json': { schema: ImportJsonBody }, 'text/csv': { schema: ImportCsvBody } } },
        response: { 200: ImportResultSchema, 400: ImportRefusedResponse, 409: ShrinkRefusedResponse },
      },
    },
    async (request) => {
      const body = request.body as string | { entries: EntryBody[] } | undefined;
      // A body is required in either form; an empty one reaches no parser and no schema (http/bodyless-requests.ts).
      if (body === undefined) {
        throw new AppError('validation_failed', 'The body is empty: send {"entries": [...]} as application/json, or a CSV file as text/csv.', {
          errors: [{ pointer: '', detail: 'is required', in: 'body' }],
        });
      }
      const source: ImportSource = typeof body === 'string' ? { format: 'csv', ...entriesFromCsv(body) } : { format: 'json', bodies: body.entries };
      const { mode, allow_shrink: allowShrink = false } = request.query;
      return presentImport(await service.importEntries(auditContextOf(request), request.params.id, source, { mode, allowShrink }));
    },
  );

  api.get(
    '/watchlists/:id/entries/export',
    {
      config: { tier: 'defense', permission: 'read', auditRead: { action: 'watchlist_entry.exported', target: 'watchlist', recordedByHandler: true } },
      schema: {
        tags: TAGS,
        summary: 'Export a watchlist’s entries (CSV or JSON)',
        description:
          'Every entry not removed (active and expired), in the order they were added, in the import’s own form: CSV (`format=csv`, or ' +
          '`Accept: text/csv`; the default) with the import’s columns, or JSON (`format=json`, or `Accept: application/json`) as the import’s body. ' +
          'Either imports back unchanged (`PUT …/entries?mode=replace` with it changes nothing). Audited as a read of every entry.',
        params: WatchlistParams,
        querystring: ExportQuery,
        response: {
          200: {
            description: 'The entries.',
            content: { 'text/csv': { schema: Type.String({ description: 'The CSV file.' }) }, 'application/json': { schema: ImportJsonBody } },
          },
        },
      },
    },
    async (request, reply) => {
      const context = auditContextOf(request);
      const accept = request.headers.accept ?? '';
      const format = request.query.format ?? (/application\/json/.test(accept) && !/text\/csv/.test(accept) ? 'json' : 'csv');
      const bodies = await service.exportEntries(context, request.params.id);
      reads.record(context, {
        action: 'watchlist_entry.exported',
        target: { type: 'watchlist', id: request.params.id },
        details: { format, count: bodies.length },
      });
      const name = `watchlist-${request.params.id}.${format}`;
      reply.header('content-disposition', `attachment; filename="${name}"`);
      // A CSV file goes as bytes: a string would be serialized as a JSON string.
      return format === 'csv'
        ? reply.type(CSV_TYPE).send(Buffer.from(entriesToCsv(bodies)) as never)
        : reply.type('application/json').send({ entries: bodies });
    },
  );
}
