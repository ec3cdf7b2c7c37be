/**
 * GET /api/v1/audit/export: the organization's audit trail, filtered, as NDJSON or CSV, streamed
 * and resumable. Each line carries its chain hash so the export can be checked against tampering,
 * and the export itself is audited.
 */
import { Type } from 'typebox';
import { recordAudit } from '../../audit/audit.ts';
import { READ_ACTIONS } from '../../audit/read-actions.ts';
import { auditContextOf } from '../../http/audit-context.ts';
import { AppError } from '../../http/errors.ts';
import type { Feature } from '../../http/feature.ts';
import { decodeLineCursor } from './export-line.ts';
import { type ExportFormat, exportStream } from './export-stream.ts';

const CONTENT_TYPES: Record<ExportFormat, string> = { ndjson: 'application/x-ndjson', csv: 'text/csv; charset=utf-8' };

const ExportQuery = Type.Object(
  {
    from: Type.Optional(Type.String({ format: 'date-time', description: 'Events at or after this time.' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'Events before this time.' })),
    action: Type.Optional(
      Type.String({
        maxLength: 100,
        description:
          'Only this action, e.g. `api_key.revoked`; events recorded under an earlier name of it (`api_key.active` for `api_key.enabled`) are included, as stored.',
      }),
    ),
    actor: Type.Optional(Type.String({ maxLength: 200, description: "Only this actor: a key id or a person's subject." })),
    request_id: Type.Optional(Type.String({ maxLength: 128, description: 'Only events of this X-Request-ID.' })),
    kind: Type.Optional(
      Type.Union([Type.Literal('read'), Type.Literal('write')], {
        description:
          `Only reads of personal data (\`read\`: ${READ_ACTIONS.map((action) => `\`${action}\``).join(', ')}), ` +
          'or only the other events (`write`: changes, sign-ins, failed authentications). Both by default.',
        examples: ['write'],
      }),
    ),
    format: Type.Optional(Type.Union([Type.Literal('ndjson'), Type.Literal('csv')], { description: 'Default NDJSON, or from the Accept header.' })),
    cursor: Type.Optional(Type.String({ maxLength: 200, description: 'Resume after the line that carried this cursor.' })),
  },
  { additionalProperties: false },
);

const ExportLine = Type.Object({
  seq: Type.Integer(),
  occurred_at: Type.String({ format: 'date-time' }),
  actor: Type.Object({ type: Type.String(), id: Type.String(), role: Type.Union([Type.String(), Type.Null()]) }),
  action: Type.String(),
  target: Type.Object({ type: Type.Union([Type.String(), Type.Null()]), id: Type.Union([Type.String(), Type.Null()]) }),
  request_id: Type.Union([Type.String(), Type.Null()]),
  source_ip: Type.Union([Type.String(), Type.Null()]),
  outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
  details: Type.Object({}, { additionalProperties: true }),
  prev_hash: Type.String({ description: 'Hex SHA-256 of the previous event in the chain.' }),
  hash: Type.String({ description: "Hex SHA-256 of prev_hash and this event's canonical JSON." }),
  cursor: Type.String(),
});

const auditExport: Feature = {
  name: 'audit-export',
  async register(api, { db, reads }) {
    api.get(
      '/audit/export',
      {
        config: { tier: 'enterprise', permission: 'administer', auditRead: { action: 'audit.exported', recordedByHandler: true } },
        schema: {
          tags: ['audit'],
          summary: 'Export the audit trail',
          description:
            'Streams every matching event, oldest first, one per line: NDJSON (default) or CSV (`format=csv` or ' +
            '`Accept: text/csv`). Each line carries its chain hash and a `cursor`: to resume an interrupted export, ' +
            'repeat the request with `cursor` set to the last line received. Needs an admin key or role. Reads of personal data are ' +
            'events too (`kind` tells them apart); the export includes every read this server answered before it, and reads answered ' +
            'by other servers of a cluster a fraction of a second later. The export itself is recorded (`audit.exported`) before its first line is read.',
          querystring: ExportQuery,
          response: {
            200: {
              description: 'The events.',
              content: { 'application/x-ndjson': { schema: ExportLine }, 'text/csv': { schema: Type.String() } },
            },
          },
        },
      },
      async (request, reply) => {
        const { from, to, action, actor, request_id: requestId, kind, cursor } = request.query;
        if (from && to && from > to) {
          throw new AppError('validation_failed', '`from` is after `to`.', { errors: [{ pointer: '/from', detail: 'is after to', in: 'query' }] });
        }
        const format: ExportFormat = request.query.format ?? (/text\/csv/.test(request.headers.accept ?? '') ? 'csv' : 'ndjson');
        const afterSeq = cursor ? decodeLineCursor(cursor) : 0;
        const filter = {
          ...(from && { from: new Date(from) }),
          ...(to && { to: new Date(to) }),
          ...(action && { action }),
          ...(actor && { actor }),
          ...(requestId && { requestId }),
          ...(kind && { kind }),
        };
        const context = auditContextOf(request);
        await reads.flush(context.actor.organizationId);
        await db.withTenant(context.actor, async (trx) => recordAudit(trx, context, { action: 'audit.exported', details: { format, ...request.query } }));
        return (
          reply
            .type(CONTENT_TYPES[format])
            .header('content-disposition', `attachment; filename="audit-${context.actor.organizationId}.${format === 'csv' ? 'csv' : 'ndjson'}"`)
            // A stream is piped as it is; the schema above documents its lines.
            .send(exportStream(db.withTenant, context.actor, filter, afterSeq, format) as never)
        );
      },
    );
  },
};

export default auditExport;
