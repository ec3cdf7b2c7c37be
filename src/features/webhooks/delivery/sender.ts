/**
 * One attempt to deliver a webhook: check where it goes (again, at delivery time), POST the body
 * to the checked address with a deadline, follow no redirect, and report what happened. Every
 * failure is an outcome the attempt records; it throws only when `signal` aborted it.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AddressPolicy } from '../../../webhooks/address-policy.ts';
import { parseRetryAfter } from '../../../webhooks/retry-schedule.ts';
import type { AttemptOutcome } from '../tables.ts';
import { type Destination, RefusedDestination, type Resolver, resolveDestination } from './destination.ts';

/** Kept of a receiver's answer. */
const RESPONSE_KEPT_CHARS = 1024;
/** Read of it at most, before the connection is dropped. */
const RESPONSE_READ_BYTES = 64 * 1024;
const ERROR_KEPT_CHARS = 500;

export type SendOptions = {
  policy: AddressPolicy;
  resolve: Resolver;
  timeoutMs: number;
  userAgent: string;
  now: () => Date;
  /** Aborted when the process stops: the attempt is then not an outcome, it is left to be made again. */
  signal?: AbortSignal;
};

export type SendResult = {
  outcome: AttemptOutcome;
  status: number | null;
  latencyMs: number;
  responseBody: string | null;
  error: string | null;
  /** When the receiver asked for a pause (Retry-After), in ms. */
  retryAfterMs?: number;
};

class DeadlineExceeded extends Error {}

export async function sendWebhook(urlText: string, headers: Record<string, string>, body: string, options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failure = (outcome: AttemptOutcome, error: string): SendResult => ({
    outcome,
    status: null,
    latencyMs: elapsed(),
    responseBody: null,
    error: error.slice(0, ERROR_KEPT_CHARS),
  });
  try {
    const destination = await resolveDestination(urlText, options.policy, options.resolve, options.timeoutMs);
    const answer = await post(
      destination,
      { ...headers, 'content-type': 'application/json', 'user-agent': options.userAgent },
      body,
      options.timeoutMs - elapsed(),
      options.signal,
    );
    const status = answer.status;
    const retryAfterMs = parseRetryAfter(answer.retryAfter, options.now());
    return {
      outcome: status >= 200 && status < 300 ? 'succeeded' : 'http_error',
      status,
      latencyMs: elapsed(),
      responseBody: answer.body,
      error: status >= 300 && status < 400 ? 'redirects are not followed' : null,
      ...(retryAfterMs !== undefined && { retryAfterMs }),
    };
  } catch (error) {
    if (options.signal?.aborted) throw error;
    if (error instanceof RefusedDestination) return failure('refused', error.message);
    if (error instanceof DeadlineExceeded) return failure('timeout', `no complete answer within ${options.timeoutMs} ms`);
    const { code, message } = error as NodeJS.ErrnoException;
    return failure('network_error', code ? `${code}: ${message}` : message);
  }
}

type Answer = { status: number; body: string; retryAfter: string | undefined };

/** POSTs to the checked address only: the lookup answers with it, so no second resolution can swap it. */
function post(destination: Destination, headers: Record<string, string>, body: string, timeoutMs: number, signal?: AbortSignal): Promise<Answer> {
  const { address, family } = destination.address;
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const client = destination.url.protocol === 'https:' ? https : http;
  return new Promise<Answer>((resolve, reject) => {
    const request = client.request(destination.url, { method: 'POST', headers, lookup, agent: false, ...(signal && { signal }) });
    const timer = setTimeout(() => request.destroy(new DeadlineExceeded()), Math.max(1, timeoutMs));
    const finish = (outcome: () => void) => {
      clearTimeout(timer);
      outcome();
    };
    request.on('error', (error) => finish(() => reject(error)));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let read = 0;
      const done = () =>
        finish(() => {
          // PostgreSQL text holds no NUL; a receiver's answer may.
          const text = Buffer.concat(chunks).toString('utf8').replaceAll('\u0000', '').slice(0, RESPONSE_KEPT_CHARS);
          resolve({ status: response.statusCode ?? 0, body: text, retryAfter: response.headers['retry-after'] });
          request.destroy();
        });
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read <= RESPONSE_READ_BYTES) chunks.push(chunk);
        else done();
      });
      response.on('end', done);
      response.on('error', (error) => finish(() => reject(error)));
    });
    request.end(body);
  });
}
