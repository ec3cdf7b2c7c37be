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
    // Written in the background: a synchronous write per line stopped the event loop whenever the
    // reader of stdout fell behind (a full pipe), which the load benchmark's profile showed as up
    // to 5% of the server's time. pino flushes what is pending when the process exits.
    stream: pino.destination({ dest: 1, sync: false }),
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
