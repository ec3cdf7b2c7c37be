/**
 * HTTP from a chosen loopback address (127.0.0.2, 127.0.0.3…: Linux answers the whole 127/8), so
 * that a test can be several clients behind one balancer on one machine. Every request opens its
 * own connection, so a balancer sends each to the next process in turn.
 */
import http from 'node:http';

export type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string; json<T = Record<string, unknown>>(): T };

export function requestFrom(from: string, url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<Answer> {
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  const headers = { ...init.headers, ...(body !== undefined && { 'content-type': 'application/json' }) };
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: init.method ?? 'GET', headers, agent: false, localAddress: from }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text, json: <T>() => JSON.parse(text) as T }));
    });
    request.on('error', reject);
    request.end(body);
  });
}
