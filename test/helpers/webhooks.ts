/**
 * For webhook tests: a real HTTP receiver on 127.0.0.1 that answers as a test tells it to and
 * records what it got, DNS answers a test controls (as it controls time), and the application
 * with the webhooks feature resolving through them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import type { Resolver } from '../../src/features/webhooks/delivery/destination.ts';
import { buildTestApp, type TestApp } from './test-app.ts';

export type Received = { headers: http.IncomingHttpHeaders; body: string; path: string };
/** How the receiver answers one request: a status (and headers, body), or never ('hang'). */
export type Reply = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export type Receiver = {
  port: number;
  url(path?: string): string;
  received: Received[];
  /** Answers the next requests with these, in order; afterwards with `fallback` (200 by default). */
  plan(...replies: Reply[]): void;
  fallback: Reply;
  /** Resolves once `count` requests have arrived in all. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
};

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const queue: Reply[] = [];
  const waiters: (() => void)[] = [];
  const receiver = { fallback: { status: 200, body: 'ok' } as Reply };
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body, path: request.url ?? '' });
      for (const wake of waiters.splice(0)) wake();
      const reply = queue.shift() ?? receiver.fallback;
      if (reply === 'hang') return; // the socket is closed by close()
      response.writeHead(reply.status, reply.headers).end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(receiver, {
    port,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    plan: (...replies: Reply[]) => queue.push(...replies),
    waitFor: (count: number, timeoutMs = 10_000) =>
      new Promise<Received[]>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the receiver got ${received.length} of ${count} requests within ${timeoutMs} ms`)), timeoutMs);
        const check = () => {
          if (received.length >= count) {
            clearTimeout(timer);
            resolve(received);
          } else waiters.push(check);
        };
        check();
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  });
}

/** DNS from a table the test owns and may change (a host that later resolves elsewhere: rebinding). */
export function fakeDns(table: Record<string, string[]>): Resolver & { table: Record<string, string[]> } {
  const resolve = async (hostname: string) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: net.isIPv6(address) ? (6 as const) : (4 as const) }));
  };
  return Object.assign(resolve, { table });
}

/** The real application whose webhooks resolve names through `resolve` (and tell time by `clock`); the delivery worker is the test's own. */
export async function buildWebhooksTestApp(resolve: Resolver, options: { env?: Record<string, string>; clock?: () => Date } = {}): Promise<TestApp> {
  const env = options.env ?? {};
  return buildTestApp({ env, seams: { webhooks: { resolve, ...(options.clock && { clock: options.clock }) } } });
}
