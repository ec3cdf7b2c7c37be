/**
 * Log settings. Logs are JSON lines with the request id on every line. They never carry request
 * bodies, the query string (it may hold names being searched), credentials or cookies.
 */
import type { FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';

export function loggerOptions(config: Pick<Config, 'logLevel'>): FastifyServerOptions['logger'] {
  if (config.logLevel === 'silent') return false;
  return {
    level: config.logLevel,
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
