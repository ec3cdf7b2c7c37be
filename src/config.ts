/**
 * The service's configuration, read from the environment once at boot and validated.
 * Nothing else in `src/` reads `process.env`: every part receives the typed `Config`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Env, EnvReader } from './env-reader.ts';
import { readTrustedProxies, type TrustedProxies } from './http/trusted-proxies.ts';
import { type ListsConfig, readListsConfig } from './lists/lists-config.ts';
import { AllowList } from './webhooks/address-policy.ts';

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
  /**
   * Name PostgreSQL statements so each connection plans them once; undefined: yes, unless the
   * connection reached PostgreSQL through a pooler (src/db/pooler.ts). A transaction pooler cannot
   * keep them: no PgBouncer keeps SQL-level PREPARE, which the writes at commit use.
   */
  databasePrepareStatements: boolean | undefined;
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
  /** How old a prescreen may be and still stand for the screening at check-in. */
  checkinPrescreenFreshnessHours: number;
  /** A full workforce sync may deactivate this share of the active profiles (and a few more in a small organization); more is refused without allow_shrink. */
  workforceShrinkLimitPercent: number;
  /** How often the monitoring worker looks for runs to work; 0 turns the worker off in this process. */
  monitoringIntervalSeconds: number;
  /** On the first start of an empty embedded database, create a sandbox organization and key. */
  sandboxBootstrap: boolean;
  /** Requests a second per credential, by tier (bursts of twice that); organizations may have their own. */
  rateLimitPerSecond: { defense: number; enterprise: number };
  /** Failed authentications allowed per source address per minute. */
  authFailuresPerMinute: number;
  /** The load balancers whose X-Forwarded-For names the client (src/http/trusted-proxies.ts); undefined: the peer is the client. */
  trustProxy: TrustedProxies | undefined;
  /** An external identity provider whose JWTs are also trusted (all three set, or none). */
  externalIdentityProvider: { jwksUrl: string; issuer: string; audience: string } | undefined;
  /** Restricted-party lists: where they come from and how the service keeps them current. */
  lists: ListsConfig;
  /**
   * A font for the evidence PDF's names that DejaVu Sans cannot draw (Chinese, Japanese, Korean),
   * e.g. /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc with its family NotoSansCJKsc-Regular.
   * Without it such names are shown transliterated.
   */
  evidenceFallbackFont: { path: string; family?: string } | undefined;
  /** Outbound webhook delivery and the keys that keep webhook secrets. */
  webhooks: WebhooksConfig;
  /** Mark the console's cookies Secure (sent over https only); false for a console reached by plain http. */
  consoleSecureCookies: boolean;
};

export type WebhooksConfig = {
  /** Hosts, host:port pairs and CIDR ranges webhooks may reach although private (and by plain http). */
  allowList: AllowList;
  /** Plain http to any public host; otherwise https only. */
  allowHttp: boolean;
  /** One attempt's limit, DNS to response; a slower receiver's attempt fails as a timeout. */
  deliveryTimeoutMs: number;
  /** Deliveries one process sends at the same time. */
  concurrency: number;
  /** How often an idle delivery worker looks for due deliveries. */
  pollIntervalMs: number;
  /** Run a delivery worker in `serve` (any number of processes may). */
  worker: boolean;
  /** AES-256 keys sealing webhook secrets, the first sealing; unset: a key kept in the database's owner-only table. */
  secretsKeys: Buffer[] | undefined;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = new EnvReader(env, problems);

  const databaseUrl = read.optionalString('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const fallbackFont = read.optionalString('EVIDENCE_FALLBACK_FONT');
  const fallbackFamily = read.optionalString('EVIDENCE_FALLBACK_FONT_FAMILY');
  if (fallbackFont !== undefined && !fs.existsSync(fallbackFont)) problems.push(`EVIDENCE_FALLBACK_FONT: there is no file at ${fallbackFont}`);
  if (fallbackFamily !== undefined && fallbackFont === undefined) problems.push('EVIDENCE_FALLBACK_FONT_FAMILY needs EVIDENCE_FALLBACK_FONT');
  const config: Config = {
    host: read.optionalString('HOST') ?? '127.0.0.1',
    port: read.integer('PORT', 8080, 0, 65535),
    databaseUrl,
    dataDir: path.resolve(read.optionalString('DATA_DIR') ?? './data'),
    migrateOnStart: read.boolean('MIGRATE_ON_START', true),
    databasePoolSize: read.integer('DATABASE_POOL_SIZE', 10, 1, 500),
    databasePrepareStatements: read.optionalString('DATABASE_PREPARE_STATEMENTS') === undefined ? undefined : read.boolean('DATABASE_PREPARE_STATEMENTS', true),
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    bodyLimitBytes: read.integer('BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    requestTimeoutMs: read.integer('REQUEST_TIMEOUT_MS', 30_000, 1_000, 600_000),
    keepAliveTimeoutMs: read.integer('KEEP_ALIVE_TIMEOUT_MS', 72_000, 1_000, 600_000),
    shutdownGraceMs: read.integer('SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    idempotencyRetentionSeconds: read.integer('IDEMPOTENCY_RETENTION_SECONDS', 86_400, 60, 30 * 86_400),
    checkinPrescreenFreshnessHours: read.integer('CHECKIN_PRESCREEN_FRESHNESS_HOURS', 24, 0, 24 * 30),
    workforceShrinkLimitPercent: read.integer('WORKFORCE_SHRINK_LIMIT_PERCENT', 10, 0, 100),
    monitoringIntervalSeconds: read.integer('MONITORING_INTERVAL_SECONDS', 10, 0, 3_600),
    sandboxBootstrap: read.boolean('SANDBOX_BOOTSTRAP', true),
    rateLimitPerSecond: {
      defense: read.integer('RATE_LIMIT_DEFENSE_PER_SECOND', 50, 1, 100_000),
      enterprise: read.integer('RATE_LIMIT_ENTERPRISE_PER_SECOND', 200, 1, 100_000),
    },
    authFailuresPerMinute: read.integer('AUTH_FAILURES_PER_MINUTE', 30, 1, 100_000),
    trustProxy: readTrustedProxies(read),
    externalIdentityProvider: undefined,
    evidenceFallbackFont: fallbackFont === undefined ? undefined : { path: path.resolve(fallbackFont), ...(fallbackFamily && { family: fallbackFamily }) },
    webhooks: webhooksConfig(read, problems),
    consoleSecureCookies: read.boolean('CONSOLE_SECURE_COOKIES', true),
    lists: readListsConfig(read, (p) => path.resolve(p)),
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

function webhooksConfig(read: EnvReader, problems: string[]): WebhooksConfig {
  const keys = read
    .optionalString('WEBHOOK_SECRETS_KEY')
    ?.split(',')
    .map((k) => Buffer.from(k.trim(), 'base64'));
  if (keys?.some((k) => k.length !== 32))
    problems.push('WEBHOOK_SECRETS_KEY must be one or more comma-separated base64 keys of 32 bytes (openssl rand -base64 32)');
  return {
    allowList: AllowList.parse(read.optionalString('WEBHOOK_ALLOWED_HOSTS'), problems),
    allowHttp: read.boolean('WEBHOOK_ALLOW_HTTP', false),
    deliveryTimeoutMs: read.integer('WEBHOOK_DELIVERY_TIMEOUT_MS', 15_000, 100, 120_000),
    concurrency: read.integer('WEBHOOK_DELIVERY_CONCURRENCY', 8, 1, 100),
    pollIntervalMs: read.integer('WEBHOOK_POLL_INTERVAL_MS', 1_000, 20, 60_000),
    worker: read.boolean('WEBHOOK_WORKER', true),
    secretsKeys: keys,
  };
}
