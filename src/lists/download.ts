/**
 * Downloads one official list file to disk: streamed, hashed on the way (SHA-256), bounded by a
 * timeout, and retried with exponential backoff when the failure may pass (network errors,
 * timeouts, 408, 429 and 5xx). A 404 or another 4xx is reported at once: retrying will not help.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

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

export type Downloaded = { url: string; path: string; bytes: number; sha256: string; attempts: number };

export class DownloadError extends Error {
  override name = 'DownloadError';
}

class RetryableError extends DownloadError {}

export async function downloadFile(url: string, destination: string, options: DownloadOptions): Promise<Downloaded> {
  const base = options.retryBaseMs ?? 1_000;
  for (let attempt = 1; ; attempt++) {
    try {
      return { ...(await attemptDownload(url, destination, options)), attempts: attempt };
    } catch (error) {
      const retryable = error instanceof RetryableError || !(error instanceof DownloadError);
      if (!retryable || attempt > options.retries) {
        const tries = attempt === 1 ? '' : ` (after ${attempt} attempts)`;
        throw new DownloadError(`${url}: ${describe(error)}${tries}`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, base * 2 ** (attempt - 1)));
    }
  }
}

async function attemptDownload(url: string, destination: string, options: DownloadOptions) {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const response = await fetch(url, { signal, redirect: 'follow' });
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    const message = `the server answered ${response.status} ${response.statusText}`.trim();
    if (response.status >= 500 || response.status === 408 || response.status === 429) throw new RetryableError(message);
    throw new DownloadError(message);
  }
  const announced = Number(response.headers.get('content-length'));
  const progress = options.progress?.(url.split('/').pop() || url, Number.isFinite(announced) && announced > 0 ? announced : undefined);
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
  } finally {
    progress?.done();
  }
  return { url, path: destination, bytes, sha256: hash.digest('hex') };
}

function describe(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'no complete answer within the timeout';
  if (error instanceof DownloadError) return error.message;
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ? `${cause.code} ${cause.message ?? ''}`.trim() : error instanceof Error ? error.message : String(error);
}
