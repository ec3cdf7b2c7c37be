import { type App, buildApp } from '../../src/app.ts';
import type { AppServices, ServiceSeams } from '../../src/composition.ts';
import { loadConfig } from '../../src/config.ts';
import type { Feature } from '../../src/http/feature.ts';
import { openTestDatabase, type TestDatabase } from './test-database.ts';

export type TestApp = { app: App; database: TestDatabase; close(): Promise<void> };

/**
 * The real application on a fresh test database. `features` replaces the application's own
 * (tests add small features of their own to reach edge behaviour with real routes), and `seams`
 * what a test replaces in its services (composition.ts). Register `close` with `after()`.
 */
export async function buildTestApp(options: { features?: Feature<AppServices>[]; env?: Record<string, string>; seams?: ServiceSeams } = {}): Promise<TestApp> {
  const database = await openTestDatabase();
  const app = await buildApp({
    config: testConfig(options.env),
    db: database.db,
    ...(options.features && { features: options.features }),
    ...(options.seams && { seams: options.seams }),
  }).catch(async (error) => {
    await database.close();
    throw error;
  });
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/**
 * Another instance of the service on the same database, as a second process would be: its own
 * caches and in-memory state, the same rows, and `env` for its own settings. Close it (only the
 * app) before the first.
 */
export function buildSecondApp(first: TestApp, env?: Record<string, string>): Promise<App> {
  return buildApp({ config: testConfig(env), db: first.database.db });
}

function testConfig(env: Record<string, string> = {}) {
  // Limits high enough that only the rate-limit tests, which set their own, ever meet them.
  return loadConfig({
    LOG_LEVEL: 'silent',
    RATE_LIMIT_DEFENSE_PER_SECOND: '100000',
    RATE_LIMIT_ENTERPRISE_PER_SECOND: '100000',
    AUTH_FAILURES_PER_MINUTE: '100000',
    // Monitoring runs are worked by the tests that want them, when they call for them.
    MONITORING_INTERVAL_SECONDS: '0',
    ...env,
  });
}
