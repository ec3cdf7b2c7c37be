/**
 * Builds the Fastify application from its parts in a fixed order (edge behaviour → description →
 * services and features, from the composition root in composition.ts → operations). It does not
 * listen; server.ts does, and tests call `inject()` on the result.
 */

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { createReadTrail, READ_TRAIL_DEFAULTS } from './audit/read-trail.ts';
import { createAuthenticator } from './auth/authenticator.ts';
import { externalKeySet, loadSigningKey } from './auth/token-keys.ts';
import { createTokenService } from './auth/tokens.ts';
import { APP_FEATURES, type AppServices, buildAppServices, type ServiceSeams } from './composition.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { installAuditedReads } from './http/audited-reads.ts';
import { installAuthentication } from './http/authentication.ts';
import { acceptBodylessRequests } from './http/bodyless-requests.ts';
import { handleClientError } from './http/client-errors.ts';
import { installErrorHandling, sendProblem } from './http/error-handler.ts';
import { AppError } from './http/errors.ts';
import type { Api, Feature } from './http/feature.ts';
import { installIdempotency } from './http/idempotency/idempotency.ts';
import { parseJsonBody } from './http/json-body.ts';
import { installListFreshnessMetrics } from './http/list-metrics.ts';
import { installLongRequests } from './http/long-requests.ts';
import { installMetrics } from './http/metrics.ts';
import { installOpenApi } from './http/openapi.ts';
import { registerOperationsRoutes } from './http/operations-routes.ts';
import { ProblemSchema } from './http/problem.ts';
import { createRateLimiter } from './http/rate-limit.ts';
import { Readiness } from './http/readiness.ts';
import { REQUEST_ID_HEADER, requestIdFor } from './http/request-id.ts';
import { OneLinePerRequest } from './http/request-log.ts';
import { countRequestsInFlight } from './http/requests-in-flight.ts';
import { RouteIndex } from './http/route-index.ts';
import { buildSerializerCompiler } from './http/serialization.ts';
import { limitStoreFor } from './http/shared-limits.ts';
import { trustProxyOption } from './http/trusted-proxies.ts';
import { buildValidatorCompiler } from './http/validation.ts';
import { type ListCatalog, type ListSnapshot, openListCatalog } from './lists/catalog.ts';
import { type ListFreshnessMonitor, openFreshnessMonitor } from './lists/freshness.ts';
import { configuredSources, expectedLists } from './lists/list-sources.ts';
import { loggerOptions } from './logging.ts';
import { VERSION } from './version.ts';

export type AppDependencies = {
  config: Config;
  db: Database;
  /** Defaults to every feature of the application (composition.ts). */
  features?: Feature<AppServices>[];
  /** What a test replaces in the services (composition.ts). */
  seams?: ServiceSeams;
};

export type App = Api & { routeIndex: RouteIndex; readiness: Readiness; lists: ListCatalog; listFreshness: ListFreshnessMonitor; services: AppServices };

export async function buildApp({ config, db, features, seams }: AppDependencies): Promise<App> {
  const routeIndex = new RouteIndex();
  const readiness = new Readiness();
  const app = Fastify({
    logger: loggerOptions(config),
    genReqId: requestIdFor,
    logController: new OneLinePerRequest({ requestIdLogLabel: 'request_id' }),
    requestIdHeader: false, // requestIdFor validates the header itself
    // request.ip is the client behind a trusted balancer (TRUST_PROXY), for the audit trail, the limits and the log alike.
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: config.bodyLimitBytes,
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    forceCloseConnections: 'idle',
    return503OnClosing: false, // we answer it ourselves, as problem+json (below)
    clientErrorHandler: handleClientError, // the HTTP parser's refusals, as problem+json too
    // Every scope gets our validator, including scopes that add shared schemas (Fastify would
    // otherwise build its default one there, which stops at the first error). Validators and
    // serializers are compiled when first used (validation.ts, serialization.ts).
    // (Its declared type expects Ajv's own compiler; ours has the call shape Fastify uses.)
    schemaController: { compilersFactory: { buildValidator: buildValidatorCompiler as never, buildSerializer: buildSerializerCompiler } },
    frameworkErrors: (error, _request, reply) => sendProblem(reply, new AppError('not_found', `The request path could not be parsed: ${error.message}`)),
  } satisfies FastifyServerOptions).withTypeProvider<TypeBoxTypeProvider>();

  // Bodies are JSON. Fastify also parses text/plain by default; a string would then reach the
  // schema as "must be object" instead of the 415 the caller needs.
  app.removeContentTypeParser('text/plain');
  // Ours rather than Fastify's: UTF-8 only, and `__proto__` refused as a field, not as broken JSON (see json-body.ts).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBody);
  acceptBodylessRequests(app);
  app.addSchema(ProblemSchema);
  app.addHook('onRoute', (route) => routeIndex.add(route));
  countRequestsInFlight(app);
  installErrorHandling(app, routeIndex, config.bodyLimitBytes);

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('cache-control', 'no-store');
    if (closing) {
      reply.header('connection', 'close');
      throw new AppError('service_unavailable', 'The server is shutting down; retry on another instance.');
    }
  });
  const idp = config.externalIdentityProvider;
  const tokens = createTokenService(db, await loadSigningKey(db), idp && { ...idp, keys: externalKeySet(idp.jwksUrl) });
  const limits = limitStoreFor(db, (error) => app.log.warn({ err: error }, 'could not sweep the rate limits that are full again; trying again later'));
  installAuthentication(app, createAuthenticator(db, tokens), createRateLimiter(config, limits));
  const reads = createReadTrail(db.withTenant, {
    ...READ_TRAIL_DEFAULTS,
    onError: (error, pending) => app.log.error({ err: error, pending }, 'could not append reads to the audit trail; they are kept in memory and tried again'),
  });
  installAuditedReads(app, reads);
  installLongRequests(app);
  installIdempotency(app, db, {
    retentionSeconds: config.idempotencyRetentionSeconds,
    // A request cannot outlive its timeout, so an older reservation belongs to a dead process.
    abandonAfterSeconds: Math.ceil((2 * config.requestTimeoutMs) / 1000),
  });
  const metrics = installMetrics(app);
  // The in-process view of the active list versions, shared by every feature, polled until close.
  const lists = await openListCatalog(db.lists, {
    refreshSeconds: config.lists.reloadSeconds,
    expectedLists: expectedLists(config.lists.sources),
    onError: (error) => app.log.warn({ err: error }, 'could not refresh the restricted-party lists; keeping the loaded ones'),
  });
  app.addHook('onClose', async () => lists.close());
  const listSources = configuredSources(config.lists.sources);
  const listFreshness = await openFreshnessMonitor(db.listChecks, listSources, config.lists, (error) =>
    app.log.warn({ err: error }, 'could not read how current the lists are; keeping what was read before'),
  );
  app.addHook('onClose', async () => listFreshness.close());
  installListFreshnessMetrics(metrics, () => listFreshness.report());
  const logLoaded = (snapshot: ListSnapshot) =>
    app.log.info(
      {
        lists: snapshot.versions.map((v) => `${v.list}@${v.id}`),
        entities: snapshot.index.entityCount,
        names: snapshot.index.nameCount,
        indexBuildMs: snapshot.indexBuildMs,
      },
      'restricted-party lists loaded and indexed',
    );
  const initial = lists.current();
  if (initial) logLoaded(initial);
  lists.subscribe(logLoaded);
  await installOpenApi(app, VERSION);

  const services = await buildAppServices({ config, db, lists, listFreshness, log: app.log }, seams);
  for (const feature of features ?? APP_FEATURES) {
    await app.register(async (scope) => feature.register(scope as Api, { config, db, readiness, tokens, lists, listFreshness, reads, limits }, services), {
      prefix: feature.prefix ?? '/api/v1',
    });
  }
  await registerOperationsRoutes(app, metrics);
  await app.ready();
  return Object.assign(app, { routeIndex, readiness, lists, listFreshness, services });
}
