/**
 * `gatehouse lists …` as an operator runs it: real processes, JSON on stdout, a line per list on
 * stderr; and `serve` loading LISTS_DIR at start and surviving a failed first download.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { childEnv, cliTestDatabase, processDatabase, runCli, startServerProcess } from '../helpers/server-process.ts';

const BIN = path.resolve('bin/gatehouse.js');
const OFAC = path.resolve('test/fixtures/ofac');
const BIS = path.resolve('test/fixtures/bis');

const cli = cliTestDatabase('gatehouse-lists-cli-');
const json = cli.json;

describe('gatehouse lists', () => {
  let firstVersions: string[] = [];
  test('import reads folders, detects the formats and reports a version per list; again, nothing changes', () => {
    const first = json(['lists', 'import', OFAC, BIS]);
    assert.deepEqual(
      first.out.map((o: { list: string; status: string; entity_count: number }) => [o.list, o.status, o.entity_count]),
      [
        ['BIS_DPL', 'imported', 2],
        ['OFAC_SDN', 'imported', 3],
      ],
    );
    assert.match(first.err, /^OFAC_SDN: imported 3 entities as lv_\w{26} \(3 added, 0 removed, 0 changed\)$/m);
    firstVersions = first.out.map((o: { version_id: string }) => o.version_id);
    const again = json(['lists', 'import', OFAC]);
    assert.deepEqual([again.out[0].status, again.out[0].version_id], ['unchanged', first.out[1].version_id]);
  });

  test('a truncated file is refused with a clear message and exit 1; status shows the previous versions still active, and what is missing', () => {
    const truncated = path.join(cli.scratch, 'truncated');
    fs.mkdirSync(truncated);
    fs.writeFileSync(path.join(truncated, 'sdn.csv'), fs.readFileSync(path.join(OFAC, 'sdn.csv')).subarray(0, 150));
    const result = runCli(['lists', 'import', truncated], cli.env);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /sdn\.csv: cannot be read as ofac-legacy: .*truncated or malformed/);
    assert.equal(result.stdout, '');

    const { out } = json(['lists', 'status']);
    assert.deepEqual(
      out.lists.map((l: { version_id: string }) => l.version_id),
      firstVersions,
    );
    assert.deepEqual([out.lists[1].list, out.lists[1].entity_count, out.lists[1].imported_hours_ago], ['OFAC_SDN', 3, 0]);
    assert.deepEqual(out.missing, ['OFAC_CONS', 'UN_SC', 'BIS_EL', 'BIS_UVL', 'BIS_MEU', 'DDTC_DEBARRED', 'STATE_ISN', 'UK_FCDO']);
  });

  test('update downloads from the configured URLs and imports; a shrunken file is refused with exit 1', async () => {
    const served: Record<string, Buffer> = {
      '/sdn.csv': Buffer.from(`${fs.readFileSync(path.join(OFAC, 'sdn.csv'), 'latin1').split('\r\n')[0]}\r\n\x1a`, 'latin1'),
      '/add.csv': fs.readFileSync(path.join(OFAC, 'add.csv')),
      '/alt.csv': fs.readFileSync(path.join(OFAC, 'alt.csv')),
      '/sdn_comments.csv': fs.readFileSync(path.join(OFAC, 'sdn_comments.csv')),
      '/dpl.txt': fs.readFileSync(path.join(BIS, 'dpl.txt')),
    };
    const server = http.createServer((request, response) => {
      const body = served[request.url ?? ''];
      if (body) response.writeHead(200).end(body);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const urls = {
      LISTS_URL_OFAC_SDN: `${base}/`,
      LISTS_URL_BIS_DPL: `${base}/dpl.txt`,
      LISTS_URL_OFAC_CONS: 'off',
      LISTS_URL_UN_SC: 'off',
      LISTS_URL_CSL: 'off',
      LISTS_URL_UK_FCDO: 'off',
    };
    try {
      // Not runCli: a synchronous child would block this process's HTTP server.
      const result = await promisify(execFile)(process.execPath, [BIN, 'lists', 'update'], { env: childEnv({ ...cli.env, ...urls }) }).then(
        (r) => ({ code: 0, ...r }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      assert.equal(result.code, 1, result.stderr);
      const [ofac, bis] = JSON.parse(result.stdout);
      assert.deepEqual([ofac.source, ofac.lists[0].status, bis.lists[0].status], ['ofacSdn', 'refused', 'unchanged']);
      assert.match(ofac.files[0].sha256, /^[0-9a-f]{64}$/);
      assert.match(result.stderr, /OFAC_SDN: refused\. OFAC_SDN: the new file has 1 entities, the active version lv_\w+ has 3 \(below 50%\)/);
    } finally {
      server.close();
    }
  });
});

describe('gatehouse serve and lists', () => {
  test('imports LISTS_DIR at start, and a failed first download is one warning, not a stop', async () => {
    const fresh = await processDatabase();
    const server = await startServerProcess({
      ...fresh.env,
      LISTS_DIR: BIS,
      LISTS_AUTO_UPDATE: 'false',
      ...{
        LISTS_URL_OFAC_CONS: 'off',
        LISTS_URL_UN_SC: 'off',
        LISTS_URL_CSL: 'off',
        LISTS_URL_UK_FCDO: 'off',
        LISTS_URL_BIS_DPL: 'http://127.0.0.1:9/dpl.txt',
      },
    });
    try {
      assert.match(server.stdout(), /LISTS_DIR: BIS_DPL: imported 2 entities/);
      assert.doesNotMatch(server.stdout(), /downloading the official lists/);
      const ready = await fetch(`${server.baseUrl}/readyz`);
      assert.equal(ready.status, 200);
      assert.deepEqual(((await ready.json()) as { checks: { lists: object } }).checks.lists, { ok: true, detail: 'missing: OFAC_SDN' });
    } finally {
      await server.stop();
    }

    const empty = await processDatabase();
    const offline = await startServerProcess({
      ...empty.env,
      LISTS_AUTO_UPDATE: 'true',
      LISTS_URL_OFAC_SDN: 'http://127.0.0.1:9/',
      LISTS_URL_OFAC_CONS: 'off',
      LISTS_URL_UN_SC: 'off',
      LISTS_URL_CSL: 'off',
      LISTS_URL_UK_FCDO: 'off',
      LISTS_DOWNLOAD_RETRIES: '0',
    });
    try {
      const deadline = Date.now() + 20_000;
      while (!/"level":40/.test(offline.stdout()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      const warnings = offline
        .stdout()
        .split('\n')
        .filter((line) => line.includes('"level":40'));
      assert.equal(warnings.length, 1, offline.stdout());
      assert.match(
        warnings[0] ?? '',
        /OFAC SDN \(legacy CSV\): the check failed; the active versions stay\. http:\/\/127\.0\.0\.1:9\/sdn\.csv: .*gatehouse lists import/,
      );
      assert.equal((await fetch(`${offline.baseUrl}/healthz`)).status, 200);
      assert.equal((await fetch(`${offline.baseUrl}/readyz`)).status, 503);
    } finally {
      await offline.stop();
      await fresh.cleanup();
      await empty.cleanup();
    }
  });
});
