/**
 * Downloads one official list file to disk: streamed, hashed on the way (SHA-256), bounded by a
 * timeout, and retried with exponential backoff when the failure may pass (network errors,
 * timeouts, 408, 429 and 5xx). A 404 or another 4xx is reported at once: retrying will not help.
 *
 * Publishers are reached as they are today: with the User-Agent they require, with a conditional
 * request when the file's ETag or Last-Modified is known (a 304 downloads nothing), and following
 * redirects only to hosts the source allows and never from https down to http. A body shorter
 * than its Content-Length is a truncated download, not a file.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileValidators } from './list-tables.ts';

export type FileProgress = { tick(receivedBytes: number): void; done(): void };

export type DownloadOptions = {
  timeoutMs: number;
  /** Attempts after the first. */
  retries: number;
  /** The first wait between attempts; doubled each time. */
  retryBaseMs?: number;
  /** Called once per attempt with the size announced by the server, if any. */
  progress?: (label: string, totalBytes: number | undefined) => FileProgress;
};

export type FileRequest = {
  url: string;
  userAgent: string;
  /** Sent back as If-None-Match / If-Modified-Since; absent for an unconditional request. */
  validators?: FileValidators | undefined;
  redirectAllowed(host: string): boolean;
};

export type Downloaded = {
  status: 'downloaded';
  url: string;
  /** Where the last redirect led; equal to `url` without one. */
  finalUrl: string;
  path: string;
  bytes: number;
  sha256: string;
  attempts: number;
  contentType: string | undefined;
  validators: FileValidators;
};
export type NotModified = { status: 'not_modified'; url: string; attempts: number };

export class DownloadError extends Error {
  override name = 'DownloadError';
}

class RetryableError extends DownloadError {}

const MAX_REDIRECTS = 5;

export async function downloadFile(request: FileRequest, destination: string, options: DownloadOptions): Promise<Downloaded | NotModified> {
  const base = options.retryBaseMs ?? 1_000;
  for (let attempt = 1; ; attempt++) {
    try {
      return { ...(await attemptDownload(request, destination, options)), attempts: attempt };
    } catch (error) {
      const retryable = error instanceof RetryableError || !(error instanceof DownloadError);
      if (!retryable || attempt > options.retries) {
        const tries = attempt === 1 ? '' : ` (after ${attempt} attempts)`;
        throw new DownloadError(`${request.url}: ${describe(error)}${tries}`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, base * 2 ** (attempt - 1)));
    }
  }
}

async function attemptDownload(request: FileRequest, destination: string, options: DownloadOptions) {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const { response, finalUrl } = await fetchFollowing(request, signal);
  if (response.status === 304) {
    await response.body?.cancel();
    return { status: 'not_modified' as const, url: request.url };
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    const via = finalUrl === request.url ? '' : ` (redirected to ${finalUrl})`;
    const message = `the server answered ${response.status} ${response.statusText}`.trim() + via;
    if (response.status >= 500 || response.status === 408 || response.status === 429) throw new RetryableError(message);
    if (response.status === 403 && !/^Mozilla\/\d/.test(request.userAgent))
      throw new DownloadError(`${message}; this publisher may require a browser-like User-Agent`);
    throw new DownloadError(message);
  }
  const announced = Number(response.headers.get('content-length'));
  const expected = Number.isFinite(announced) && announced > 0 ? announced : undefined;
  const progress = options.progress?.(request.url.split('/').pop() || request.url, expected);
  const hash = createHash('sha256');
  let bytes = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      bytes += chunk.length;
      progress?.tick(bytes);
      callback(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(response.body as never), measure, fs.createWriteStream(destination));
  } catch (error) {
    if ((error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError') throw error;
    const of = expected === undefined ? ' bytes' : ` of the ${expected} bytes announced`;
    throw new RetryableError(`the connection broke after ${bytes}${of}: truncated (${describe(error)})`);
  } finally {
    progress?.done();
  }
  if (expected !== undefined && bytes !== expected) throw new RetryableError(`the body ended after ${bytes} of the ${expected} bytes announced: truncated`);
  const sha256 = hash.digest('hex');
  const etag = response.headers.get('etag') ?? undefined;
  const lastModified = response.headers.get('last-modified') ?? undefined;
  return {
    status: 'downloaded' as const,
    url: request.url,
    finalUrl,
    path: destination,
    bytes,
    sha256,
    contentType: response.headers.get('content-type') ?? undefined,
    validators: { sha256, ...(etag && { etag }), ...(lastModified && { last_modified: lastModified }) },
  };
}

/** Follows redirects by hand, so that each hop's host is checked before it is contacted. */
async function fetchFollowing(request: FileRequest, signal: AbortSignal): Promise<{ response: Response; finalUrl: string }> {
  const headers: Record<string, string> = { 'user-agent': request.userAgent, accept: '*/*' };
  if (request.validators?.etag) headers['if-none-match'] = request.validators.etag;
  if (request.validators?.last_modified) headers['if-modified-since'] = request.validators.last_modified;
  let url = request.url;
  for (let hop = 0; ; hop++) {
    const response = await fetch(url, { signal, redirect: 'manual', headers });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || response.status === 304 || !location) return { response, finalUrl: url };
    await response.body?.cancel();
    if (hop === MAX_REDIRECTS) throw new DownloadError(`more than ${MAX_REDIRECTS} redirects`);
    const next = new URL(location, url);
    if (new URL(url).protocol === 'https:' && next.protocol !== 'https:') throw new DownloadError(`refused a redirect from https to ${next.href}`);
    if (!request.redirectAllowed(next.hostname))
      throw new DownloadError(`refused a redirect to ${next.href}: ${next.hostname} is not one of the publisher's hosts`);
    url = next.href;
  }
}

function describe(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'no complete answer within the timeout';
  if (error instanceof DownloadError) return error.message;
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ? `${cause.code} ${cause.message ?? ''}`.trim() : error instanceof Error ? error.message : String(error);
}
