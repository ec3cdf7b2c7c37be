/**
 * Runs the service: opens (and on the embedded database, creates and migrates) the database,
 * builds the app, listens, and shuts down gracefully on SIGTERM/SIGINT: it stops accepting
 * connections, lets in-flight requests finish within the grace period, then closes the database.
 */
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { bootstrapSandbox } from './auth/sandbox-bootstrap.ts';
import { openReadyDatabase } from './db/database.ts';
import { importListsDir, updateListsIfNone } from './lists/lists-at-start.ts';

export type RunningServer = { url: string; close(): Promise<void> };

export async function startServer(config: Config): Promise<RunningServer> {
  const db = await openReadyDatabase(config);
  const sandbox = config.sandboxBootstrap && db.backend === 'pglite' ? await bootstrapSandbox(db) : undefined;
  const app = await buildApp({ config, db });
  await importListsDir(db.lists, config.lists, app.log);
  await app.lists.refresh();
  const address = await app.listen({ host: config.host, port: config.port });
  if (sandbox) announceSandbox(sandbox, `${address}/api`); // before the line that says we are up
  app.log.info({ address, database: db.backend }, 'gatehouse is listening');
  // Not awaited: the service serves (and says it is not ready) while the lists download.
  void updateListsIfNone(db.lists, app.lists, config.lists, app.log).catch((error) =>
    app.log.error({ err: error }, 'the background list update failed'),
  );

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

/** Shown once, on the terminal rather than in the logs: the key is a secret. */
function announceSandbox(sandbox: { organizationId: string; key: string }, baseUrl: string) {
  process.stderr.write(
    [
      '',
      'A sandbox organization (Enterprise tier) was created on this new embedded database.',
      `  organization: ${sandbox.organizationId}`,
      `  admin API key (shown this once): ${sandbox.key}`,
      `  try: curl -H "Authorization: Bearer ${sandbox.key}" ${baseUrl}/v1/api-keys`,
      'Set SANDBOX_BOOTSTRAP=false to start without it.',
      '',
    ].join('\n'),
  );
}
