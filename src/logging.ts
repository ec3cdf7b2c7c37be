/**
 * Log settings. Logs are JSON lines with the request id on every line. They never carry request
 * bodies, the query string (it may hold names being searched), credentials or cookies.
 */
import type { FastifyServerOptions } from 'fastify';
import pino from 'pino';
import type { Config } from './config.ts';

export function loggerOptions(config: Pick<Config, 'logLevel'>): FastifyServerOptions['logger'] {
  if (config.logLevel === 'silent') return false;
  return {
    level: config.logLevel,
    stream: standardOutput(),
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
    serializers: {
      req: (request: { method: string; url: string; ip?: string }) => ({
        method: request.method,
        path: request.url.split('?')[0],
        remote_address: request.ip,
      }),
      // A database error carries the statement's parameters (names, dates of birth): keep only
      // what says what went wrong.
      err: (error: Error & { code?: string; routine?: string; constraint?: string; table?: string }) => ({
        type: error.name,
        message: error.message,
        ...(error.code && { code: error.code }),
        ...(error.constraint && { constraint: error.constraint }),
        ...(error.table && { table: error.table }),
        ...(error.routine && { routine: error.routine }),
        stack: error.stack ?? '',
      }),
    },
  };
}

/**
 * Standard output, written in the background and in pieces of at least 4 KiB, one stream per
 * process. A synchronous write per line stopped the event loop whenever the reader of stdout fell
 * behind (a full pipe), and a write per line, even in the background, was 3.6% of the server's
 * time at 250 requests a second in the load benchmark's profile; ten lines per write cost a
 * tenth of that. A quiet service still shows each line within a second, and pino writes out
 * what is pending when the process exits.
 */
let stdout: ReturnType<typeof pino.destination> | undefined;
function standardOutput() {
  if (stdout) return stdout;
  const stream = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => {
    try {
      stream.flush();
    } catch {
      // Closed as the process ends: pino has written out what was pending.
    }
  }, 1000).unref();
  stdout = stream;
  return stream;
}
