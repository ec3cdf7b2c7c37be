import { type App, buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { Feature } from '../../src/http/feature.ts';
import { openTestDatabase, type TestDatabase } from './test-database.ts';

export type TestApp = { app: App; database: TestDatabase; close(): Promise<void> };

/**
 * The real application on a fresh test database. `features` replaces the ones in src/features
 * (tests add small features of their own to reach edge behaviour with real routes). Register
 * `close` with `after()`.
 */
export async function buildTestApp(
  options: { features?: Feature[]; env?: Record<string, string> } = {},
): Promise<TestApp> {
  const database = await openTestDatabase();
  const config = loadConfig({ LOG_LEVEL: 'silent', ...options.env });
  const app = await buildApp({
    config,
    db: database.db,
    ...(options.features && { features: options.features }),
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
