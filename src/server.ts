/**
 * Runs the service: opens (and on the embedded database, creates and migrates) the database,
 * builds the app, listens, and shuts down gracefully on SIGTERM/SIGINT: it stops accepting
 * connections, lets in-flight requests finish within the grace period, then closes the database.
 */
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/database.ts';

export type RunningServer = { url: string; close(): Promise<void> };

export async function startServer(config: Config): Promise<RunningServer> {
  const db = await openDatabase(config);
  try {
    if (config.migrateOnStart || db.backend === 'pglite') await db.migrate();
    else {
      const { pending } = await db.migrationStatus();
      if (pending.length > 0) {
        throw new Error(`The database lacks migrations ${pending.join(', ')}: run \`gatehouse migrate\` first`);
      }
    }
  } catch (error) {
    await db.close();
    throw error;
  }
  const app = await buildApp({ config, db });
  const address = await app.listen({ host: config.host, port: config.port });
  app.log.info({ address, database: db.backend }, 'gatehouse is listening');

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const timer = setTimeout(() => {
        app.log.error('in-flight requests did not finish within the grace period; exiting');
        process.exit(1);
      }, config.shutdownGraceMs).unref();
      try {
        await app.close();
      } finally {
        await db.close();
        clearTimeout(timer);
      }
    })());

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      app.log.info({ signal }, 'shutting down');
      close().then(
        () => process.exit(0),
        (error) => {
          app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
  return { url: `${address}/api`, close };
}
