/**
 * Debian's HAProxy balancing HTTP over several service processes, as a deployment of many
 * processes runs it: each request goes to the next process in turn (every request opens its own
 * connection in these tests), and `option forwardfor` tells the service who the client is in
 * X-Forwarded-For, which it trusts from 127.0.0.1 (TRUST_PROXY, README "Behind a load balancer").
 */
import { daemonFiles, findExecutable, freePort, startDaemon } from './daemons.ts';

export type Balancer = { baseUrl: string; pid: number; stop(): Promise<void> };

/**
 * `backends`: the processes' base URLs (http://127.0.0.1:port/api). `cpus`: the CPUs HAProxy
 * keeps to (taskset's list), so that a benchmark can keep it off the load generator's core.
 */
export async function startHaproxy(backends: string[], options: { cpus?: string } = {}): Promise<Balancer> {
  const executable = findExecutable('haproxy');
  if (!executable) throw new Error('haproxy is not installed (apt-get install haproxy)');
  const port = await freePort();
  const files = daemonFiles('gatehouse-haproxy-', () => ({
    'haproxy.cfg': [
      'defaults',
      '  mode http',
      '  option forwardfor',
      '  timeout connect 5s',
      '  timeout client 60s',
      '  timeout server 60s',
      'frontend gatehouse',
      `  bind 127.0.0.1:${port}`,
      '  default_backend services',
      'backend services',
      '  balance roundrobin',
      ...backends.map((url, n) => `  server s${n} ${new URL(url).host}`),
      '',
    ].join('\n'),
  }));
  // -db: in the foreground, so that stopping the child stops it. taskset execs HAProxy in its own process.
  const args = ['-db', '-f', files.paths['haproxy.cfg'] as string];
  const [file, argv] = options.cpus ? ['taskset', ['-c', options.cpus, executable, ...args]] : [executable, args];
  const daemon = await startDaemon(file, argv, port).catch((error) => {
    files.remove();
    throw error;
  });
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    pid: daemon.child.pid as number,
    stop: async () => {
      await daemon.stop();
      files.remove();
    },
  };
}
