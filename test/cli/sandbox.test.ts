/**
 * A newcomer's first start on the embedded database: a sandbox organization and one key, shown once.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { runCli, startServerProcess } from '../helpers/server-process.ts';

describe('the sandbox on first start', { skip: !!process.env.DATABASE_URL && 'the sandbox is created on the embedded database only' }, () => {
  test('a new embedded database gets a sandbox organization and a key that works, printed once, never logged', async () => {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-sandbox-'));
    try {
      const server = await startServerProcess({ DATA_DIR: fresh });
      const shownOnce = /admin API key \(shown this once\): (gk_test_\S+)/;
      const key = shownOnce.exec(await server.waitForStderr(shownOnce))?.[1];
      assert.ok(key, server.stderr());
      const response = await fetch(`${server.baseUrl}/v1/api-keys`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(response.status, 200);
      assert.ok(!server.stdout().includes(key), 'the key is not in the logs');
      assert.equal(await server.stop(), 0);

      const again = await startServerProcess({ DATA_DIR: fresh });
      await again.stop(); // stderr is complete once the process has closed its pipes
      assert.doesNotMatch(again.stderr(), /gk_test_/, 'only on the first start');
      const orgs = JSON.parse(runCli(['orgs', 'list'], { DATA_DIR: fresh }).stdout);
      assert.deepEqual(
        orgs.map((o: { name: string; tier: string }) => [o.name, o.tier]),
        [['Sandbox', 'enterprise']],
      );
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  });

  test('SANDBOX_BOOTSTRAP=false starts without it', async () => {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-nosandbox-'));
    try {
      const server = await startServerProcess({ DATA_DIR: fresh, SANDBOX_BOOTSTRAP: 'false' });
      await server.stop();
      assert.doesNotMatch(server.stderr(), /gk_test_/);
      assert.deepEqual(JSON.parse(runCli(['orgs', 'list'], { DATA_DIR: fresh }).stdout), []);
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  });
});
