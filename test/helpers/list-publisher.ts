/**
 * A list publisher on loopback, for the tests of downloads and the scheduled refresh: it serves
 * files at paths with an ETag (answering 304 to a matching If-None-Match), and each path can be
 * made to misbehave the ways publishers do: refuse clients that do not look like a browser (403,
 * as OFAC's firewall does), redirect, fail with a 500 a number of times, never answer, serve an
 * HTML page, or send a truncated body. Every request is recorded.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Behaviour =
  | { kind: 'file'; body: Buffer; etag?: boolean; contentType?: string }
  | { kind: 'redirect'; to: string; status?: number }
  | { kind: 'html' }
  | { kind: 'hang' }
  /** Announces the whole length and closes the connection half-way. */
  | { kind: 'cut'; body: Buffer };

/** `at` is performance.now() when the request arrived. */
export type RecordedRequest = { path: string; userAgent: string; ifNoneMatch: string | undefined; status: number; at: number };

export type ListPublisher = {
  base: string;
  requests: RecordedRequest[];
  /** Serves `body` at `path` (with an ETag unless told otherwise). */
  serve(path: string, body: Buffer, options?: { etag?: boolean; contentType?: string }): void;
  set(path: string, behaviour: Behaviour): void;
  /** The next `times` requests to `path` answer 500. */
  failNext(path: string, times: number): void;
  /** Paths that answer 403 to a User-Agent not starting `Mozilla/<digit>` with at least 40 characters. */
  requireBrowser(prefix: string): void;
  /** Every path answers 503 until `up()`. */
  down(): void;
  up(): void;
  close(): Promise<void>;
};

const HOME_PAGE = '<!DOCTYPE html><html><head><title>Bureau of Industry and Security</title></head><body>Welcome</body></html>';

export async function startListPublisher(): Promise<ListPublisher> {
  const routes = new Map<string, Behaviour>();
  const failures = new Map<string, number>();
  const browserOnly: string[] = [];
  const requests: RecordedRequest[] = [];
  let isDown = false;

  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] as string;
    const userAgent = request.headers['user-agent'] ?? '';
    const ifNoneMatch = request.headers['if-none-match'];
    const at = performance.now();
    const answer = (status: number, headers: http.OutgoingHttpHeaders = {}, body?: Buffer | string) => {
      requests.push({ path, userAgent, ifNoneMatch, status, at });
      response.writeHead(status, headers).end(body);
    };
    if (isDown) return answer(503, {}, 'down for maintenance');
    if (browserOnly.some((prefix) => path.startsWith(prefix)) && !(/^Mozilla\/\d/.test(userAgent) && userAgent.length >= 40)) {
      return answer(403, { 'content-type': 'text/html' }, '<html><body>Request blocked</body></html>');
    }
    const failing = failures.get(path) ?? 0;
    if (failing > 0) {
      failures.set(path, failing - 1);
      return answer(500, {}, 'internal error');
    }
    const behaviour = routes.get(path);
    if (!behaviour) return answer(404, {}, 'no such file');
    switch (behaviour.kind) {
      case 'redirect':
        return answer(behaviour.status ?? 302, { location: behaviour.to });
      case 'html':
        return answer(200, { 'content-type': 'text/html; charset=utf-8' }, HOME_PAGE);
      case 'hang':
        requests.push({ path, userAgent, ifNoneMatch, status: 0, at });
        return;
      case 'cut':
        requests.push({ path, userAgent, ifNoneMatch, status: 200, at });
        response.writeHead(200, { 'content-length': behaviour.body.length });
        response.write(behaviour.body.subarray(0, Math.floor(behaviour.body.length / 2)), () => response.destroy());
        return;
      case 'file': {
        const etag = `"${createHash('sha256').update(behaviour.body).digest('hex').slice(0, 16)}"`;
        if (behaviour.etag !== false && ifNoneMatch === etag) return answer(304, { etag });
        const headers = {
          'content-type': behaviour.contentType ?? 'application/octet-stream',
          'content-length': behaviour.body.length,
          ...(behaviour.etag !== false && { etag }),
        };
        return answer(200, headers, behaviour.body);
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    requests,
    serve: (path, body, options = {}) => routes.set(path, { kind: 'file', body, ...options }),
    set: (path, behaviour) => routes.set(path, behaviour),
    failNext: (path, times) => failures.set(path, times),
    requireBrowser: (prefix) => browserOnly.push(prefix),
    down: () => (isDown = true),
    up: () => (isDown = false),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
