/**
 * The scheduled refresh end to end: `gatehouse serve` as its own process, refreshing every two
 * seconds from publishers played by a server on loopback that serves the real list files and
 * misbehaves as publishers do (403 without a browser User-Agent, a redirect to another path, 304
 * for an unchanged ETag, a 500 then success, a URL that never answers, an HTML page in place of
 * the file, a truncated file). Screening requests run the whole time and must all succeed. The
 * service picks up a changed SDN (2023-05 → 2024-05), keeps serving through the outage, reports
 * failing sources and stale lists, and recovers. On PostgreSQL, two processes on one database
 * download each version of each file once.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { listDataDir, skipWithoutListData } from '../helpers/list-data.ts';
import { type ListPublisher, startListPublisher } from '../helpers/list-publisher.ts';
import { processDatabase, type ServerProcess, startServerProcess, startWithAdminKey } from '../helpers/server-process.ts';

const skip = skipWithoutListData();
const data = (relative: string) => fs.readFileSync(path.join(listDataDir(), relative));
const OFAC_SIDE_FILES = ['add.csv', 'alt.csv', 'sdn_comments.csv'];
const SDN_2023 = 'ofac_sdn_2024-05/history/2023-05-02/sdn.csv';
const SDN_2024 = 'ofac_sdn_2024-05/sdn.csv';

/** Serves every source, with the misbehaviour each first URL shows. */
function publish(publisher: ListPublisher) {
  publisher.requireBrowser('/ofac/');
  publisher.serve('/ofac/sdn.csv', data(SDN_2023));
  for (const name of OFAC_SIDE_FILES) publisher.serve(`/ofac/${name}`, data(`ofac_sdn_2025-01/${name}`));
  // OFAC's documented endpoint redirects to the path that serves the files.
  for (const name of ['sdn.csv', ...OFAC_SIDE_FILES]) publisher.set(`/sls/download/${name}`, { kind: 'redirect', to: `/ofac/${name}` });
  for (const name of ['cons_prim.csv', 'cons_add.csv', 'cons_alt.csv', 'cons_comments.csv']) {
    publisher.set(`/hang/${name}`, { kind: 'hang' });
    publisher.serve(`/cons/${name}`, data(`ofac_cons_2025-12/${name}`));
  }
  publisher.serve('/un/consolidated.xml', data('un_sc_2026-02/consolidated.xml'));
  publisher.failNext('/un/consolidated.xml', 1);
  publisher.set('/home/consolidated.csv', { kind: 'html' });
  publisher.serve('/csl/consolidated.csv', gunzipSync(data('csl_2022-05_complete/consolidated.csv.gz')));
}

function sourcesEnv(base: string): Record<string, string> {
  return {
    LISTS_AUTO_UPDATE: 'true',
    LISTS_REFRESH_INTERVAL: '2s',
    LISTS_RELOAD_SECONDS: '1',
    LISTS_DOWNLOAD_TIMEOUT_MS: '1000',
    LISTS_DOWNLOAD_RETRIES: '1',
    LISTS_FAILED_CHECKS_BEFORE_DEGRADED: '2',
    LISTS_MAX_AGE: '*=25s',
    LISTS_URL_OFAC_SDN: `${base}/sls/download/`,
    LISTS_URL_OFAC_CONS: `${base}/hang/ ${base}/cons/`,
    LISTS_URL_UN_SC: `${base}/un/consolidated.xml`,
    LISTS_URL_CSL: `${base}/home/consolidated.csv ${base}/csl/consolidated.csv`,
    LISTS_URL_UK_FCDO: 'off',
  };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

type ListsAnswer = { data: { list: string; version_id: string; entity_count: number; changes: { added: number } }[] };
type Readiness = { status: string; checks: Record<string, { ok: boolean; detail?: string }> };

/** An entity the 2024-05 SDN added to the 2023-05 one, and its listed name. */
function addedOrganization(): { entryId: string; name: string } {
  const rows = (file: string) =>
    data(file)
      .toString('latin1')
      .split('\r\n')
      .map((line) => /^(\d+),"([^"]+)","?(-0-|individual|vessel|aircraft)/.exec(line));
  // Numbered after every entry of 2023: designated since (a number below may be a re-listing).
  const last = Math.max(...rows(SDN_2023).flatMap((m) => (m ? [Number(m[1])] : [])));
  const added = rows(SDN_2024).find((m) => m && Number(m[1]) > last && m[3] === '-0-' && (m[2] as string).split(' ').length >= 4);
  assert.ok(added, 'the 2024 list adds organizations');
  return { entryId: added[1] as string, name: added[2] as string };
}

describe('the scheduled refresh, end to end', { skip }, () => {
  let publisher: ListPublisher;
  let storage: Awaited<ReturnType<typeof processDatabase>>;
  let server: ServerProcess;
  let key: string;
  const statuses: number[] = [];
  let load: NodeJS.Timeout | undefined;
  const api = (route: string, init: RequestInit = {}) =>
    fetch(`${server.baseUrl}${route}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
  const lists = async () => (await (await api('/v1/lists')).json()) as ListsAnswer;
  const readiness = async () => (await (await fetch(`${server.baseUrl}/readyz`)).json()) as Readiness;

  before(async () => {
    publisher = await startListPublisher();
    publish(publisher);
    storage = await processDatabase();
    ({ server, key } = await startWithAdminKey(storage, { ...storage.env, ...sourcesEnv(publisher.base) }));
  });
  after(async () => {
    clearInterval(load);
    await server?.stop('SIGKILL');
    await publisher.close();
    await storage.cleanup();
  });

  test("the first check loads every source through the publishers' quirks", async () => {
    const loaded = await until('every list', async () => {
      const answer = await lists();
      const codes = answer.data.map((v) => v.list);
      return ['OFAC_SDN', 'OFAC_CONS', 'UN_SC', 'BIS_DPL', 'BIS_EL'].every((code) => codes.includes(code)) ? answer : undefined;
    });
    assert.equal(loaded.data.find((v) => v.list === 'OFAC_SDN')?.entity_count, 12_211);
    const seen = (prefix: string) => publisher.requests.filter((r) => r.path.startsWith(prefix));
    assert.ok(
      seen('/sls/download/').every((r) => r.status === 302),
      'the documented endpoint redirected',
    );
    // Not refused (403) for want of a browser's User-Agent. A 304 is a later check's: the next one starts two seconds after
    // the first ends, and may have asked for OFAC's files again, with their ETags, before the lists are read here.
    assert.ok(
      seen('/ofac/').length > 0 && seen('/ofac/').every((r) => [200, 304].includes(r.status) && /^Mozilla\/\d/.test(r.userAgent)),
      'OFAC was asked as a browser',
    );
    assert.deepEqual(
      seen('/un/')
        .slice(0, 2)
        .map((r) => r.status),
      [500, 200],
      'a 500, then the retry',
    );
    assert.match(seen('/un/')[0]?.userAgent ?? '', /^gatehouse\//, 'the UN is told who asks');
    assert.ok(seen('/home/').length > 0 && seen('/csl/').length > 0, 'the HTML page was refused and the next URL served the CSL');
    assert.ok(seen('/hang/').length > 0 && seen('/cons/').length > 0, 'the URL that never answered was given up for the next');
    await until('the log of the refused page', async () => (/served by \S+\/csl\/consolidated\.csv after/.test(server.stdout()) ? true : undefined), 10_000);
    assert.match(server.stdout(), /home\/consolidated\.csv: an HTML page \(\\"Bureau of Industry and Security\\"\) came in place of consolidated\.csv/);
  });

  test('while screenings run, an unchanged file is asked for with its ETag and not downloaded again', async () => {
    load = setInterval(() => {
      api('/v1/prescreen', { method: 'POST', body: JSON.stringify({ subject: 'Refresh Load Subject' }) }).then(
        (r) => statuses.push(r.status),
        () => statuses.push(0),
      );
    }, 50);
    await until('a 304', async () => (publisher.requests.some((r) => r.path === '/ofac/sdn.csv' && r.status === 304 && r.ifNoneMatch) ? true : undefined));
  });

  test('a changed SDN is picked up while serving, and screens at once', async () => {
    const { entryId, name } = addedOrganization();
    const screen = async () =>
      (await (await api('/v1/prescreen', { method: 'POST', body: JSON.stringify({ subject: 'Refresh Test Visitor', company: name }) })).json()) as {
        matches: { list: string; entry_id: string }[];
      };
    assert.ok(!(await screen()).matches.some((m) => m.entry_id === entryId), 'not listed in 2023');
    publisher.serve('/ofac/sdn.csv', data(SDN_2024));
    const sdn = await until('the 2024 SDN', async () => (await lists()).data.find((v) => v.list === 'OFAC_SDN' && v.entity_count === 14_965));
    assert.ok(sdn.changes.added > 2_000, JSON.stringify(sdn.changes));
    const answer = await screen();
    assert.ok(
      answer.matches.some((m) => m.list === 'OFAC_SDN' && m.entry_id === entryId),
      JSON.stringify(answer.matches.slice(0, 3)),
    );
  });

  test('a truncated file is refused and the active version stays', async () => {
    const before = (await lists()).data.find((v) => v.list === 'UN_SC')?.version_id;
    const xml = data('un_sc_2026-02/consolidated.xml');
    publisher.serve('/un/consolidated.xml', xml.subarray(0, Math.floor(xml.length * 0.7)));
    await until('the refusal', async () =>
      /consolidated\.xml looks truncated: its root element <CONSOLIDATED_LIST> is never closed/.test(server.stdout()) ? true : undefined,
    );
    assert.equal((await lists()).data.find((v) => v.list === 'UN_SC')?.version_id, before);
    publisher.serve('/un/consolidated.xml', xml);
  });

  test('with the publishers down it keeps serving, says which sources fail, then which lists are stale, and recovers', async () => {
    publisher.down();
    const failing = await until('degraded', async () => {
      const r = await readiness();
      return r.status === 'degraded' && /failed its last \d+ checks/.test(r.checks.list_freshness?.detail ?? '') ? r : undefined;
    });
    assert.equal(failing.checks.lists?.ok, true);
    const stale = await until(
      'stale lists',
      async () => {
        const r = await readiness();
        return /OFAC_SDN was last confirmed current .* ago \(maximum 25 seconds?\)|OFAC_SDN was last confirmed current/.test(
          r.checks.list_freshness?.detail ?? '',
        )
          ? r
          : undefined;
      },
      60_000,
    );
    assert.equal(stale.status, 'degraded');
    publisher.up();
    let last: Readiness | undefined;
    await until('ready again', async () => ((last = await readiness()).status === 'ready' ? true : undefined), 90_000).catch((error) => {
      throw new Error(`${error.message}; readiness: ${JSON.stringify(last)}`);
    });
    clearInterval(load);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.ok(statuses.length > 50, `only ${statuses.length} screenings ran`);
    assert.deepEqual([...new Set(statuses)], [201], 'every screening during the refreshes and the outage succeeded');
  });
});

describe('two PostgreSQL processes on one database', {
  skip: skip || (!process.env.DATABASE_URL && 'PostgreSQL only: the embedded database serves one process'),
}, () => {
  test('each version of each file is downloaded once, whichever process checks', async () => {
    const publisher = await startListPublisher();
    publish(publisher);
    const storage = await processDatabase();
    // A download that runs into its time limit is tried again, and counted twice; this test is about which process
    // downloads, so on a busy machine (two processes starting at once) the file gets the time it needs.
    const env = { ...storage.env, ...sourcesEnv(publisher.base), LISTS_DOWNLOAD_TIMEOUT_MS: '15000', LISTS_URL_CSL: 'off', LISTS_URL_OFAC_CONS: 'off' };
    const [first, second] = await Promise.all([startWithAdminKey(storage, env), startServerProcess(env)]);
    const servers = [first.server, second];
    const loadedSdn = async (server: ServerProcess) => {
      const answer = (await (await fetch(`${server.baseUrl}/v1/lists`, { headers: { authorization: `Bearer ${first.key}` } })).json()) as ListsAnswer;
      return answer.data.find((v) => v.list === 'OFAC_SDN')?.entity_count;
    };
    const downloads = (file: string) => publisher.requests.filter((r) => r.path === file && r.status === 200).length;
    try {
      // A minute each, well inside the file's time limit, so that a stuck process fails here with both processes' logs.
      const inBoth = (what: string, count: number) =>
        until(what, async () => ((await Promise.all(servers.map(loadedSdn))).every((n) => n === count) ? true : undefined), 60_000).catch((error: Error) => {
          throw new Error(`${error.message}\n${servers.map((s, i) => `process ${i + 1}:\n${s.stdout().slice(-3000)}\n${s.stderr().slice(-3000)}`).join('\n')}`);
        });
      await inBoth('the first SDN in both', 12_211);
      publisher.serve('/ofac/sdn.csv', data(SDN_2024));
      await inBoth('the second SDN in both', 14_965);
      // Rounds more, counted rather than timed (a busy machine runs fewer in a given time): every one asks
      // conditionally, and none downloads again.
      const notModified = () => publisher.requests.filter((r) => r.path === '/ofac/sdn.csv' && r.status === 304).length;
      const before = notModified();
      await until('two conditional rounds more', async () => (notModified() >= before + 2 ? true : undefined), 60_000);
      assert.equal(downloads('/ofac/sdn.csv'), 2, JSON.stringify(publisher.requests.filter((r) => r.path === '/ofac/sdn.csv')));
      assert.equal(downloads('/un/consolidated.xml'), 1);
    } finally {
      await Promise.all(servers.map((s) => s.stop('SIGKILL')));
      await publisher.close();
      await storage.cleanup();
    }
  });
});
