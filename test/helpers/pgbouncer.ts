/**
 * Debian's PgBouncer in transaction mode in front of a test's PostgreSQL server, as a deployment
 * that pools connections runs it: each transaction of a client may run on a different server
 * connection, and nothing a client leaves on a session (a prepared statement, a session lock)
 * follows it.
 */
import path from 'node:path';
import { daemonFiles, findExecutable, freePort, startDaemon } from './daemons.ts';

export type PgBouncer = {
  /** `url` (a database on the server behind) reached through the pooler instead. */
  through(url: string): string;
  stop(): Promise<void>;
};

/**
 * `logins`: connection strings of the server behind (the first one's host and port are used)
 * whose users may log in through the pooler, which logs in to the server with their passwords.
 * `poolSize`: server connections per database and user.
 */
export async function startPgBouncer(logins: string[], options: { poolSize?: number } = {}): Promise<PgBouncer> {
  const executable = findExecutable('pgbouncer');
  if (!executable) throw new Error('pgbouncer is not installed (apt-get install pgbouncer)');
  const urls = logins.map((login) => new URL(login));
  const server = urls[0] as URL;
  const port = await freePort();
  const quoted = (value: string) => `"${decodeURIComponent(value).replaceAll('"', '""')}"`;
  const files = daemonFiles('gatehouse-pgbouncer-', (dir) => ({
    'users.txt': `${[...new Set(urls.map((url) => `${quoted(url.username)} ${quoted(url.password)}`))].join('\n')}\n`,
    'pgbouncer.ini': [
      '[databases]',
      `* = host=${decodeURIComponent(server.hostname).replace(/^\[(.*)\]$/, '$1')} port=${server.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'pool_mode = transaction',
      // The pooler lets anyone named in users.txt in; the server checks the passwords it is given.
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'users.txt')}`,
      `default_pool_size = ${options.poolSize ?? 20}`,
      'max_client_conn = 500',
      '',
    ].join('\n'),
  }));
  const daemon = await startDaemon(executable, [files.paths['pgbouncer.ini'] as string], port, { unprivileged: true }).catch((error) => {
    files.remove();
    throw error;
  });
  return {
    through: (url) => Object.assign(new URL(url), { hostname: '127.0.0.1', port: String(port) }).href,
    stop: async () => {
      await daemon.stop();
      files.remove();
    },
  };
}
