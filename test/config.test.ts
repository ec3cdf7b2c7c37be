import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';

test('defaults: loopback, port 8080, embedded database in ./data', () => {
  const config = loadConfig({});
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.port, 8080);
  assert.equal(config.databaseUrl, undefined);
  assert.equal(config.dataDir, path.resolve('data'));
  assert.equal(config.migrateOnStart, true);
});

test('values are read and typed', () => {
  const config = loadConfig({ HOST: '0.0.0.0', PORT: '9090', DATABASE_URL: 'postgres://u@h/db', MIGRATE_ON_START: 'false', LOG_LEVEL: 'warn' });
  assert.deepEqual(
    [config.host, config.port, config.databaseUrl, config.migrateOnStart, config.logLevel],
    ['0.0.0.0', 9090, 'postgres://u@h/db', false, 'warn'],
  );
});

test('every bad value is reported at once, by name', () => {
  try {
    loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', MIGRATE_ON_START: 'maybe', BODY_LIMIT_BYTES: '10' });
    assert.fail('expected a ConfigError');
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    assert.equal(error.problems.length, 5);
    for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'MIGRATE_ON_START', 'BODY_LIMIT_BYTES']) {
      assert.ok(
        error.problems.some((p) => p.startsWith(name)),
        name,
      );
    }
  }
});

test("lists: today's sources by default, several URLs or off per source, schedule and ages, bad values are named", () => {
  const defaults = loadConfig({}).lists;
  assert.deepEqual(
    [
      defaults.dir,
      defaults.autoUpdate,
      defaults.refreshIntervalSeconds,
      defaults.reloadSeconds,
      defaults.shrinkLimitPercent,
      defaults.failedChecksBeforeDegraded,
    ],
    [undefined, true, 3_600, 30, 50, 3],
  );
  assert.deepEqual(defaults.sources.unSc, ['https://scsanctions.un.org/resources/xml/en/consolidated.xml']);
  assert.equal(defaults.sources.ofacSdn?.[0], 'https://sanctionslistservice.ofac.treas.gov/api/download/');
  assert.equal(defaults.sources.csl?.[0], 'https://data.trade.gov/downloadable_consolidated_screening_list/v1/consolidated.csv');
  assert.deepEqual(defaults.sources.ukFcdo, ['https://sanctionslist.fcdo.gov.uk/docs/UK-Sanctions-List.csv']);
  assert.equal(defaults.sources.bisDpl, undefined, 'bis.doc.gov serves its home page: the DPL comes from the CSL');
  assert.match(defaults.browserUserAgent, /^Mozilla\/\d/);
  assert.ok(defaults.browserUserAgent.length >= 40);
  assert.deepEqual([defaults.maxAgeHours.OFAC_SDN, defaults.maxAgeHours.UN_SC, defaults.maxAgeHours['*']], [48, 72, 72]);

  const custom = loadConfig({
    LISTS_DIR: 'lists',
    LISTS_AUTO_UPDATE: 'false',
    LISTS_URL_CSL: 'off',
    LISTS_URL_UN_SC: 'http://mirror.internal/un.xml, https://backup.internal/un.xml',
    LISTS_REFRESH_INTERVAL: '15m',
    LISTS_MAX_AGE: 'UN_SC=7d, *=36h',
  }).lists;
  assert.deepEqual(
    [custom.dir, custom.autoUpdate, custom.sources.csl, custom.sources.unSc, custom.refreshIntervalSeconds],
    [path.resolve('lists'), false, undefined, ['http://mirror.internal/un.xml', 'https://backup.internal/un.xml'], 900],
  );
  assert.deepEqual([custom.maxAgeHours.UN_SC, custom.maxAgeHours.OFAC_SDN, custom.maxAgeHours['*']], [168, 36, 36]);

  assert.throws(
    () =>
      loadConfig({
        LISTS_URL_BIS_DPL: 'ftp://x',
        LISTS_RELOAD_SECONDS: '0',
        LISTS_REFRESH_INTERVAL: 'hourly',
        LISTS_MAX_AGE: 'UN_SC',
        LISTS_USER_AGENT: 'curl/8',
      }),
    (error: ConfigError) =>
      ['LISTS_RELOAD_SECONDS', 'LISTS_USER_AGENT', 'LISTS_REFRESH_INTERVAL', 'LISTS_URL_BIS_DPL', 'LISTS_MAX_AGE'].every((name) =>
        error.problems.some((p) => p.startsWith(name)),
      ) && error.problems.length === 5,
  );
});

test('an evidence fallback font must exist, and a family needs a font', () => {
  assert.equal(loadConfig({}).evidenceFallbackFont, undefined);
  const font = new URL('../assets/fonts/DejaVuSans.ttf', import.meta.url).pathname;
  assert.deepEqual(loadConfig({ EVIDENCE_FALLBACK_FONT: font }).evidenceFallbackFont, { path: font });
  assert.throws(
    () => loadConfig({ EVIDENCE_FALLBACK_FONT: '/no/such/font.ttc' }),
    (e: Error) => e instanceof ConfigError && /EVIDENCE_FALLBACK_FONT: there is no file at \/no\/such\/font\.ttc/.test(e.message),
  );
  assert.throws(() => loadConfig({ EVIDENCE_FALLBACK_FONT_FAMILY: 'NotoSansCJKsc-Regular' }), /EVIDENCE_FALLBACK_FONT_FAMILY needs EVIDENCE_FALLBACK_FONT/);
});

test('webhooks: https only, no allow-list and a database-kept sealing key by default; bad values are named', () => {
  const defaults = loadConfig({}).webhooks;
  assert.deepEqual(
    [defaults.allowHttp, defaults.allowList.entries, defaults.deliveryTimeoutMs, defaults.concurrency, defaults.worker, defaults.secretsKeys],
    [false, [], 15_000, 8, true, undefined],
  );
  const key = Buffer.alloc(32, 1).toString('base64');
  const custom = loadConfig({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:9000, hooks.internal, 10.0.0.0/8', WEBHOOK_SECRETS_KEY: `${key},${key}` }).webhooks;
  assert.deepEqual(custom.allowList.entries, ['127.0.0.1:9000', 'hooks.internal', '10.0.0.0/8']);
  assert.equal(custom.secretsKeys?.length, 2);
  assert.throws(
    () => loadConfig({ WEBHOOK_ALLOWED_HOSTS: 'ok.example, 10.0.0.0/40', WEBHOOK_SECRETS_KEY: 'c2hvcnQ=', WEBHOOK_DELIVERY_TIMEOUT_MS: '0' }),
    (error: ConfigError) =>
      error.problems.length === 3 &&
      ['WEBHOOK_SECRETS_KEY', 'WEBHOOK_ALLOWED_HOSTS', 'WEBHOOK_DELIVERY_TIMEOUT_MS'].every((name) => error.problems.some((p) => p.startsWith(name))),
  );
});

test('console cookies are Secure unless CONSOLE_SECURE_COOKIES says otherwise; a bad value is named', () => {
  assert.equal(loadConfig({}).consoleSecureCookies, true);
  assert.equal(loadConfig({ CONSOLE_SECURE_COOKIES: 'false' }).consoleSecureCookies, false);
  assert.throws(() => loadConfig({ CONSOLE_SECURE_COOKIES: 'sometimes' }), /CONSOLE_SECURE_COOKIES must be true or false/);
});

test('DATABASE_PREPARE_STATEMENTS: unset leaves it to the connection (off behind a pooler); true and false are obeyed; a bad value is named', () => {
  assert.equal(loadConfig({}).databasePrepareStatements, undefined);
  assert.equal(loadConfig({ DATABASE_PREPARE_STATEMENTS: 'true' }).databasePrepareStatements, true);
  assert.equal(loadConfig({ DATABASE_PREPARE_STATEMENTS: 'false' }).databasePrepareStatements, false);
  assert.throws(() => loadConfig({ DATABASE_PREPARE_STATEMENTS: 'auto' }), /DATABASE_PREPARE_STATEMENTS must be true or false/);
});
