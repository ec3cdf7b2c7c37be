/**
 * Reads of personal data are audited where the route says so: `config.auditRead` declares the
 * action, and one hook records each answer to an authenticated caller in the caller's own
 * organization's chain, through the read trail (src/audit/read-trail.ts), so a read never waits
 * for the chain. Recorded: who (the actor and role), what (the action and the record), the
 * request id and address. An answer sent (2xx) is a `success`; a refusal (403, or 404 for an id
 * that is not the caller's organization's, however it exists elsewhere) is a `failure` with the
 * status, so probing for other organizations' ids leaves a trace in the prober's own chain and
 * none in the other's. Other answers (bad input, rate limits, server errors) read nothing and are
 * not recorded as reads.
 *
 * A list is a read of every record on the page: one event names them all (`details.ids`), so
 * "who saw this person" has an answer without an event per row. Pages that render the records as
 * HTML name them with `recordShown`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditEvent } from '../audit/audit.ts';
import type { ReadAction } from '../audit/read-actions.ts';
import type { ReadTrail } from '../audit/read-trail.ts';
import { auditContextOf } from './audit-context.ts';

export type AuditedRead = {
  action: ReadAction;
  /** The kind of record read, as the trail's other events name it; the route's `:id` names the record unless `list`. */
  target?: string;
  /** A page of records: they are named by the answer's `data[].id`, or by `recordShown`. */
  list?: true;
  /** The handler records a sent answer itself, in the transaction that read it (a PDF, an export): only refusals are recorded here. */
  recordedByHandler?: true;
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route reads personal data: its answers are recorded in the audit trail (src/http/audited-reads.ts). */
    auditRead?: AuditedRead;
  }
}

const REFUSALS = new Set([403, 404]);

/** The ids of the records a page showed, by request. */
const shown = new WeakMap<FastifyRequest, string[]>();

/** Names the records a list page showed, for a page whose answer is not a JSON list (the console's HTML). */
export function recordShown(request: FastifyRequest, ids: readonly string[]) {
  shown.set(request, [...ids]);
}

export function installAuditedReads(app: FastifyInstance, trail: ReadTrail) {
  app.addHook('onRoute', (route) => {
    const declared = route.config?.auditRead;
    if (!declared) return;
    const methods = [route.method].flat();
    if (methods.some((method) => method !== 'GET' && method !== 'HEAD')) throw new Error(`${route.url}: config.auditRead is for GET routes`);
    if (declared.target && !declared.list && !route.url.includes(':id'))
      throw new Error(`${route.url}: config.auditRead names one ${declared.target}, so the path needs :id`);
    route.schema ??= {};
    // Fastify's HEAD twin of a GET route shares its schema: describe it once.
    if ('x-audited-read' in route.schema) return;
    const note = `Each answer is recorded in the audit trail as \`${declared.action}\`, and each refusal as a failed \`${declared.action}\`.`;
    Object.assign(route.schema, { 'x-audited-read': declared.action, description: [route.schema.description, note].filter(Boolean).join(' ') });
  });

  app.addHook('preSerialization', async (request, _reply, payload: unknown) => {
    if (request.routeOptions.config.auditRead?.list && isList(payload))
      recordShown(
        request,
        payload.data.map((item) => item.id),
      );
    return payload;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const declared = request.routeOptions.config.auditRead;
    if (!declared || !request.actor || request.method !== 'GET') return payload;
    const event = eventOf(declared, request, reply.statusCode);
    if (event) trail.record(auditContextOf(request), event);
    return payload;
  });

  app.addHook('onClose', async () => trail.close());
}

function eventOf(declared: AuditedRead, request: FastifyRequest, status: number): AuditEvent | undefined {
  const sent = status >= 200 && status < 300;
  if (!sent && !REFUSALS.has(status)) return undefined;
  if (sent && declared.recordedByHandler) return undefined;
  const id = (request.params as { id?: unknown } | undefined)?.id;
  const target = declared.target && !declared.list && typeof id === 'string' ? { target: { type: declared.target, id } } : {};
  if (!sent) return { action: declared.action, ...target, outcome: 'failure', details: { status } };
  if (!declared.list) return { action: declared.action, ...target };
  const ids = shown.get(request) ?? [];
  return { action: declared.action, details: { count: ids.length, ids } };
}

const isList = (payload: unknown): payload is { data: { id: string }[] } =>
  typeof payload === 'object' && payload !== null && Array.isArray((payload as { data?: unknown }).data);
