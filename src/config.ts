/**
 * The service's configuration, read from the environment once at boot and validated.
 * Nothing else in `src/` reads `process.env`: every part receives the typed `Config`.
 */
import path from 'node:path';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export type Config = {
  host: string;
  port: number;
  /** A PostgreSQL connection string; when absent the embedded PGlite database is used. */
  databaseUrl: string | undefined;
  /** Where the embedded database keeps its files (ignored when `databaseUrl` is set). */
  dataDir: string;
  /** Apply pending migrations when `serve` starts (always true for the embedded database). */
  migrateOnStart: boolean;
  databasePoolSize: number;
  logLevel: LogLevel;
  /** Largest request body accepted, in bytes; larger bodies answer 413. */
  bodyLimitBytes: number;
  /** A request that has not completed in this time answers 503 and its socket is closed. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
  /** On SIGTERM/SIGINT, how long in-flight requests may take before the process exits anyway. */
  shutdownGraceMs: number;
  /** How long the answer to a request with an Idempotency-Key is kept for replays. */
  idempotencyRetentionSeconds: number;
  /** On the first start of an empty embedded database, create a sandbox organization and key. */
  sandboxBootstrap: boolean;
  /** Requests a second per credential, by tier (bursts of twice that); organizations may have their own. */
  rateLimitPerSecond: { defense: number; enterprise: number };
  /** Failed authentications allowed per source address per minute. */
  authFailuresPerMinute: number;
  /** An external identity provider whose JWTs are also trusted (all three set, or none). */
  externalIdentityProvider: { jwksUrl: string; issuer: string; audience: string } | undefined;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = new EnvReader(env, problems);

  const databaseUrl = read.optionalString('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const config: Config = {
    host: read.optionalString('HOST') ?? '127.0.0.1',
    port: read.integer('PORT', 8080, 0, 65535),
    databaseUrl,
    dataDir: path.resolve(read.optionalString('DATA_DIR') ?? './data'),
    migrateOnStart: read.boolean('MIGRATE_ON_START', true),
    databasePoolSize: read.integer('DATABASE_POOL_SIZE', 10, 1, 500),
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    bodyLimitBytes: read.integer('BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    requestTimeoutMs: read.integer('REQUEST_TIMEOUT_MS', 30_000, 1_000, 600_000),
    keepAliveTimeoutMs: read.integer('KEEP_ALIVE_TIMEOUT_MS', 72_000, 1_000, 600_000),
    shutdownGraceMs: read.integer('SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    idempotencyRetentionSeconds: read.integer('IDEMPOTENCY_RETENTION_SECONDS', 86_400, 60, 30 * 86_400),
    sandboxBootstrap: read.boolean('SANDBOX_BOOTSTRAP', true),
    rateLimitPerSecond: {
      defense: read.integer('RATE_LIMIT_DEFENSE_PER_SECOND', 50, 1, 100_000),
      enterprise: read.integer('RATE_LIMIT_ENTERPRISE_PER_SECOND', 200, 1, 100_000),
    },
    authFailuresPerMinute: read.integer('AUTH_FAILURES_PER_MINUTE', 30, 1, 100_000),
    externalIdentityProvider: undefined,
  };
  const idp = { jwksUrl: read.optionalString('JWT_JWKS_URL'), issuer: read.optionalString('JWT_ISSUER'), audience: read.optionalString('JWT_AUDIENCE') };
  const given = Object.values(idp).filter((v) => v !== undefined).length;
  if (given > 0 && given < 3) problems.push('JWT_JWKS_URL, JWT_ISSUER and JWT_AUDIENCE go together: set all three or none');
  if (idp.jwksUrl && !/^https?:\/\//.test(idp.jwksUrl)) problems.push('JWT_JWKS_URL must be an http(s) URL');
  if (idp.issuer === 'gatehouse') problems.push('JWT_ISSUER cannot be "gatehouse", the issuer of our own tokens');
  config.externalIdentityProvider = given === 3 ? (idp as NonNullable<Config['externalIdentityProvider']>) : undefined;
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** Reads typed values from the environment, collecting every problem instead of stopping at the first. */
class EnvReader {
  constructor(
    private readonly env: Env,
    private readonly problems: string[],
  ) {}

  optionalString(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.optionalString(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  boolean(name: string, fallback: boolean): boolean {
    const raw = this.optionalString(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    this.problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.optionalString(name);
    if (raw === undefined) return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
    return fallback;
  }
}
