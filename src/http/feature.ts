/**
 * What a feature is, and how the app finds them: every folder in `src/features/` with an
 * `index.ts` that default-exports a `Feature`. Adding a feature is adding a folder; its tables
 * come from its own `migrations/` folder (see db/migrator.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ReadTrail } from '../audit/read-trail.ts';
import type { TokenService } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { ListCatalog } from '../lists/catalog.ts';
import type { ListFreshnessMonitor } from '../lists/freshness.ts';
import type { Readiness } from './readiness.ts';
import type { ServiceRegistry } from './services.ts';

export type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export type FeatureContext = {
  config: Config;
  db: Database;
  readiness: Readiness;
  tokens: TokenService;
  /** The restricted-party lists currently loaded (see src/lists/catalog.ts). */
  lists: ListCatalog;
  /** How current the loaded lists are: stale lists and failing sources (see src/lists/freshness.ts). */
  listFreshness: ListFreshnessMonitor;
  /** Where features provide their services to each other, and subscribe to each other's hooks. */
  services: ServiceRegistry;
  /** Reads of personal data on their way to the audit chain (src/audit/read-trail.ts): flush an organization's before reading its trail. */
  reads: ReadTrail;
};

export type Feature = {
  name: string;
  /** Where its routes are mounted; the public API lives under /api/v1, the console's pages under /console. */
  prefix?: '/api' | '/api/v1' | '/console';
  register(api: Api, context: FeatureContext): Promise<void>;
};

const FEATURES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'features');

export async function loadFeatures(dir = FEATURES_DIR): Promise<Feature[]> {
  const names = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const features: Feature[] = [];
  for (const name of names) {
    const entry = path.join(dir, name, 'index.ts');
    if (!fs.existsSync(entry)) continue; // no routes of its own: a feature others build on (src/features/cases)
    const feature = (await import(pathToFileURL(entry).href)).default as Feature | undefined;
    if (!feature?.register) throw new Error(`src/features/${name}/index.ts must default-export a Feature`);
    features.push(feature);
  }
  return features;
}
