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
  assert.deepEqual([config.host, config.port, config.databaseUrl, config.migrateOnStart, config.logLevel], ['0.0.0.0', 9090, 'postgres://u@h/db', false, 'warn']);
});

test('every bad value is reported at once, by name', () => {
  try {
    loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', MIGRATE_ON_START: 'maybe', BODY_LIMIT_BYTES: '10' });
    assert.fail('expected a ConfigError');
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    assert.equal(error.problems.length, 5);
    for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'MIGRATE_ON_START', 'BODY_LIMIT_BYTES']) {
      assert.ok(error.problems.some((p) => p.startsWith(name)), name);
    }
  }
});
