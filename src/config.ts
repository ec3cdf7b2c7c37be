/**
 * The service's configuration, read from the environment once at boot and validated.
 * Nothing else in `src/` reads `process.env`: every part receives the typed `Config`.
 */
import fs from 'node:fs';
import path from 'node:path';
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
  /** Name PostgreSQL statements so each connection plans them once; off behind a pooler that cannot keep them (PgBouncer in transaction mode before 1.21). */
  databasePrepareStatements: boolean;
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
  /** How often the monitoring worker looks for runs to work; 0 turns the worker off in this process. */
  monitoringIntervalSeconds: number;
  /** On the first start of an empty embedded database, create a sandbox organization and key. */
  sandboxBootstrap: boolean;
  /** Requests a second per credential, by tier (bursts of twice that); organizations may have their own. */
  rateLimitPerSecond: { defense: number; enterprise: number };
  /** Failed authentications allowed per source address per minute. */
  authFailuresPerMinute: number;
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

/** The official download of each list source; `undefined` when an operator turned one off. */
export type ListSourceUrls = { ofacSdn?: string; ofacCons?: string; unSc?: string; csl?: string; bisDpl?: string };

export type ListsConfig = {
  /** Imported at start when its content changed. */
  dir: string | undefined;
  /** On the first start of a database with no list, download them in the background. */
  autoUpdate: boolean;
  /** How often a running service looks for a version imported by another process. */
  refreshSeconds: number;
  /** A new version with fewer than this % of the active version's entities is refused. */
  shrinkLimitPercent: number;
  downloadTimeoutMs: number;
  downloadRetries: number;
  sources: ListSourceUrls;
};

/** The official URLs (SOURCES.md). OFAC's are folders holding the legacy CSV files. */
export const OFFICIAL_LIST_URLS: Required<ListSourceUrls> = {
  ofacSdn: 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/',
  ofacCons: 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/',
  unSc: 'https://scsanctions.un.org/resources/xml/en/consolidated.xml',
  csl: 'https://data.trade.gov/downloads/consolidated-screening-list/v1/consolidated.csv',
  bisDpl: 'https://www.bis.doc.gov/dpl/dpl.txt',
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
  const listsDir = read.optionalString('LISTS_DIR');
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
    databasePrepareStatements: read.boolean('DATABASE_PREPARE_STATEMENTS', true),
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    bodyLimitBytes: read.integer('BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    requestTimeoutMs: read.integer('REQUEST_TIMEOUT_MS', 30_000, 1_000, 600_000),
    keepAliveTimeoutMs: read.integer('KEEP_ALIVE_TIMEOUT_MS', 72_000, 1_000, 600_000),
    shutdownGraceMs: read.integer('SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    idempotencyRetentionSeconds: read.integer('IDEMPOTENCY_RETENTION_SECONDS', 86_400, 60, 30 * 86_400),
    checkinPrescreenFreshnessHours: read.integer('CHECKIN_PRESCREEN_FRESHNESS_HOURS', 24, 0, 24 * 30),
    monitoringIntervalSeconds: read.integer('MONITORING_INTERVAL_SECONDS', 10, 0, 3_600),
    sandboxBootstrap: read.boolean('SANDBOX_BOOTSTRAP', true),
    rateLimitPerSecond: {
      defense: read.integer('RATE_LIMIT_DEFENSE_PER_SECOND', 50, 1, 100_000),
      enterprise: read.integer('RATE_LIMIT_ENTERPRISE_PER_SECOND', 200, 1, 100_000),
    },
    authFailuresPerMinute: read.integer('AUTH_FAILURES_PER_MINUTE', 30, 1, 100_000),
    externalIdentityProvider: undefined,
    evidenceFallbackFont: fallbackFont === undefined ? undefined : { path: path.resolve(fallbackFont), ...(fallbackFamily && { family: fallbackFamily }) },
    webhooks: webhooksConfig(read, problems),
    consoleSecureCookies: read.boolean('CONSOLE_SECURE_COOKIES', true),
    lists: {
      dir: listsDir === undefined ? undefined : path.resolve(listsDir),
      autoUpdate: read.boolean('LISTS_AUTO_UPDATE', true),
      refreshSeconds: read.integer('LISTS_REFRESH_SECONDS', 30, 1, 86_400),
      shrinkLimitPercent: read.integer('LISTS_SHRINK_LIMIT_PERCENT', 50, 0, 100),
      downloadTimeoutMs: read.integer('LISTS_DOWNLOAD_TIMEOUT_MS', 120_000, 1_000, 3_600_000),
      downloadRetries: read.integer('LISTS_DOWNLOAD_RETRIES', 3, 0, 10),
      sources: {
        ofacSdn: read.listUrl('LISTS_URL_OFAC_SDN', OFFICIAL_LIST_URLS.ofacSdn),
        ofacCons: read.listUrl('LISTS_URL_OFAC_CONS', OFFICIAL_LIST_URLS.ofacCons),
        unSc: read.listUrl('LISTS_URL_UN_SC', OFFICIAL_LIST_URLS.unSc),
        csl: read.listUrl('LISTS_URL_CSL', OFFICIAL_LIST_URLS.csl),
        bisDpl: read.listUrl('LISTS_URL_BIS_DPL', OFFICIAL_LIST_URLS.bisDpl),
      },
    },
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
  const keys = read.optionalString('WEBHOOK_SECRETS_KEY')?.split(',').map((k) => Buffer.from(k.trim(), 'base64'));
  if (keys?.some((k) => k.length !== 32)) problems.push('WEBHOOK_SECRETS_KEY must be one or more comma-separated base64 keys of 32 bytes (openssl rand -base64 32)');
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

  /** A list source's URL: the official one by default, `off` to not download that source. */
  listUrl(name: string, fallback: string): string | undefined {
    const raw = this.optionalString(name);
    if (raw === undefined) return fallback;
    if (raw.toLowerCase() === 'off') return undefined;
    if (!/^https?:\/\//.test(raw)) this.problems.push(`${name} must be an http(s) URL or "off" (got "${raw}")`);
    return raw;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.optionalString(name);
    if (raw === undefined) return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
    return fallback;
  }
}
