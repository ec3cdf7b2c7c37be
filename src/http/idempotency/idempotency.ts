/**
 * `Idempotency-Key` for writes that opt in with `config: { idempotent: true }`.
 *
 * The first request with a key runs and its answer is kept; a retry with the same key and the
 * same request (method, route, path parameters and body) gets that answer back, marked
 * `Idempotent-Replayed: true`, without running again. The same key with a different request
 * answers 409 `idempotency_key_reused`, and a retry while the first is still running 409
 * `idempotency_key_in_progress`: both are conflicts over the key, told apart by `code`, as the
 * screening issue asks (the IETF draft answers a different request 422). A 5xx is not kept: our
 * failure rolled its work back, so the retry runs again. Keys belong to the caller's
 * organization; the header is optional.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { canonicalJson } from '../../canonical-json.ts';
import type { Database } from '../../db/database.ts';
import { sha256Hex } from '../../sha256.ts';
import '../actor.ts';
import { AppError } from '../errors.ts';
import { runningTimeOf } from '../long-requests.ts';
import { completeKey, releaseKey, reserveKey, type StoredResponse } from './idempotency-store.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Honour an Idempotency-Key header on this route. */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The key this request reserved; its answer is stored when it is sent. */
    reservedIdempotencyKey?: string;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const REPLAYED_HEADER = 'idempotent-replayed';
/** Response headers a replay must carry to mean the same thing. */
const KEPT_HEADERS = ['content-type', 'location'];

export type IdempotencyOptions = { retentionSeconds: number; abandonAfterSeconds: number };

const KeyHeaderSchema = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[\\x21-\\x7E]+$',
  description:
    'Makes this write safe to retry: a retry with the same key and body within 24 hours returns the first answer ' +
    'instead of acting twice. A UUID v4 per logical operation is a good key.',
});

export function installIdempotency(app: FastifyInstance, db: Database, options: IdempotencyOptions) {
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    route.schema ??= {};
    const headers = (route.schema.headers ?? { type: 'object', properties: {} }) as {
      properties?: Record<string, unknown>;
    };
    route.schema.headers = {
      ...headers,
      properties: { ...headers.properties, [IDEMPOTENCY_HEADER]: KeyHeaderSchema },
      additionalProperties: true, // every other header is allowed
    };
  });

  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers[IDEMPOTENCY_HEADER];
    if (!request.routeOptions.config.idempotent || typeof key !== 'string' || !request.actor) return;
    const reservation = await db.withTenant(request.actor, (trx) =>
      reserveKey(trx, {
        organizationId: request.actor!.organizationId,
        key,
        fingerprint: fingerprint(request),
        retentionSeconds: options.retentionSeconds,
        // A long-running route's reservation is not abandoned while a request to it may still be working.
        abandonAfterSeconds: Math.max(options.abandonAfterSeconds, Math.ceil((2 * runningTimeOf(request, 0)) / 1000)),
      }),
    );
    switch (reservation.outcome) {
      case 'reserved':
        request.reservedIdempotencyKey = key;
        return;
      case 'mismatch':
        throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used with a different request. Use a new key for a new operation.');
      case 'in_progress':
        throw new AppError('idempotency_key_in_progress', 'The first request with this Idempotency-Key has not finished yet.', {
          headers: { 'retry-after': '1' },
        });
      case 'replay': {
        const { status, headers, body } = reservation.response;
        return reply
          .code(status)
          .headers({ ...headers, [REPLAYED_HEADER]: 'true' })
          .send(body);
      }
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.reservedIdempotencyKey;
    if (!key || !request.actor) return payload;
    request.reservedIdempotencyKey = undefined;
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await db.withTenant(request.actor, (trx) => releaseKey(trx, key));
    } else {
      const response: StoredResponse = { status: reply.statusCode, headers: keptHeaders(reply.getHeaders()), body: payload };
      await db.withTenant(request.actor, (trx) => completeKey(trx, key, response));
    }
    return payload;
  });
}

function fingerprint(request: FastifyRequest): string {
  const parts = [request.method, request.routeOptions.url, request.params ?? {}, request.body ?? null];
  return sha256Hex(canonicalJson(parts));
}

function keptHeaders(headers: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(KEPT_HEADERS.filter((name) => headers[name] !== undefined).map((name) => [name, String(headers[name])]));
}
