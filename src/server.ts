/**
 * Runs the service: opens (and on the embedded database, creates and migrates) the database,
 * builds the app, listens, and shuts down gracefully on SIGTERM/SIGINT: it stops accepting
 * connections, lets in-flight requests finish within the grace period, then closes the database.
 */
import { buildApp } from './app.ts';
import { bootstrapSandbox } from './auth/sandbox-bootstrap.ts';
import type { Config } from './config.ts';
import { openReadyDatabase } from './db/database.ts';
import { compileRemaining } from './http/compiled-on-first-use.ts';
import { prepareNextIndexThread } from './lists/index-thread.ts';
import { type ListRefresher, startListRefresher } from './lists/list-refresher.ts';
import { configuredSources } from './lists/list-sources.ts';
import { importListsDir } from './lists/lists-at-start.ts';
import { lowerV8HelperThreads } from './thread-priority.ts';

export type RunningServer = { url: string; close(): Promise<void>; refresher: ListRefresher | undefined };

export async function startServer(config: Config): Promise<RunningServer> {
  // Garbage collection of a list being parsed in the background must not take the core requests are answered on.
  const lowered = lowerV8HelperThreads();
  const db = await openReadyDatabase(config);
  const sandbox = config.sandboxBootstrap && db.backend === 'pglite' ? await bootstrapSandbox(db) : undefined;
  const app = await buildApp({ config, db });
  await importListsDir(db, config.lists, app.log);
  await app.lists.refresh();
  // Started before the service serves, so that its first refresh does not start one beside the requests.
  prepareNextIndexThread();
  await app.listFreshness.reload();
  const address = await app.listen({ host: config.host, port: config.port });
  if (sandbox) announceSandbox(sandbox, `${address}/api`); // before the line that says we are up
  app.log.info({ address, database: db.backend, preparedStatements: db.preparesStatements, loweredHelperThreads: lowered }, 'gatehouse is listening');
  // Between the first requests: a route's first request then finds its schemas compiled (compiled-on-first-use.ts).
  compileRemaining().then(
    (schemas) => app.log.debug({ schemas }, 'route schemas compiled'),
    (error: unknown) => app.log.error({ err: error }, 'a route schema could not be compiled; its route will fail'),
  );
  if (config.lists.autoUpdate && !app.lists.current()) {
    app.log.info({}, 'no restricted-party list is loaded: downloading the official lists in the background (LISTS_AUTO_UPDATE=false turns this off)');
  }
  // The service serves (and readiness says what is missing or stale) while the lists download.
  const refresher = config.lists.autoUpdate
    ? startListRefresher({
        db,
        sources: configuredSources(config.lists.sources),
        catalog: app.lists,
        freshness: app.listFreshness,
        config: config.lists,
        log: app.log,
      })
    : undefined;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const timer = setTimeout(() => {
        app.log.error('in-flight requests did not finish within the grace period; exiting');
        process.exit(1);
      }, config.shutdownGraceMs).unref();
      try {
        await refresher?.stop();
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
  return { url: `${address}/api`, close, refresher };
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
