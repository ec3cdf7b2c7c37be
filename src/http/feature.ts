/**
 * What a feature is: routes under a prefix, registered with the platform's parts (the context)
 * and the services the composition root (src/composition.ts) built for it. A feature names the
 * services it uses in its type, `Feature<{ screenings: ScreeningService }>`, so the root cannot
 * hand it less. Its tables come from its own `migrations/` folder (see db/migrator.ts).
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ReadTrail } from '../audit/read-trail.ts';
import type { TokenService } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { ListCatalog } from '../lists/catalog.ts';
import type { ListFreshnessMonitor } from '../lists/freshness.ts';
import type { LimitStore } from './limit-store.ts';
import type { Readiness } from './readiness.ts';

export type Api = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

export type FeatureContext = {
  config: Config;
  db: Database;
  readiness: Readiness;
  tokens: TokenService;
  /** The restricted-party lists currently loaded (see src/lists/catalog.ts). */
  lists: ListCatalog;
  /** How current the loaded lists are: stale lists and failing sources (see src/lists/freshness.ts). */
  listFreshness: ListFreshnessMonitor;
  /** Reads of personal data on their way to the audit chain (src/audit/read-trail.ts): flush an organization's before reading its trail. */
  reads: ReadTrail;
  /** Where the rate limits are counted, shared by every process on PostgreSQL (src/http/shared-limits.ts). */
  limits: LimitStore;
};

export type Feature<Services = unknown> = {
  name: string;
  /** Where its routes are mounted; the public API lives under /api/v1, the console's pages under /console. */
  prefix?: '/api' | '/api/v1' | '/console';
  // A property, not a method, so that `services` is checked strictly: a feature asking for a service the root does not build fails to compile.
  register: (api: Api, context: FeatureContext, services: Services) => Promise<void>;
};
