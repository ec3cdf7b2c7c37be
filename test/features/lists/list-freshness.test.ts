/**
 * Staleness you can see: a list past its maximum age, or a source that failed its last checks,
 * makes /api/readyz answer 200 `degraded` naming it, shows in GET /api/v1/lists, in /api/metrics
 * and as a banner on every console page, and goes out once as an event organizations subscribe
 * to (`lists.stale`, `lists.update_failed`, `lists.recovered`). A token in a source's URL never
 * shows in any of them. Lists are made stale, and sources failing, in the rows the monitor reads.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type ConsoleClient, pageText, signedInUser } from '../../helpers/console-client.ts';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';
import { loadTestLists } from '../../helpers/test-lists.ts';

const SECRET = 's3cr3t-subscription-key';
const FAILED_URL = `https://data.trade.gov/downloadable_consolidated_screening_list/v1/consolidated.csv?subscription-key=${SECRET}`;

describe('list freshness, where it shows', () => {
  let harness: TestApp;
  let org: TestTenant;
  let admin: ConsoleClient;
  const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
    harness.app.inject({ method, url: `/api/v1${url}`, headers: org.headers, ...(payload && { payload }) });
  const reload = () => harness.app.listFreshness.reload();
  const ageList = async (list: string, hours: number) => {
    await harness.database.owner('UPDATE list_heads SET confirmed_at = now() - $2::interval WHERE list = $1', [list, `${hours} hours`]);
    await reload();
  };
  const failSource = async (source: string, failures: number, error: string) => {
    await harness.database.owner(
      `INSERT INTO list_source_checks (source, last_attempt_at, last_success_at, consecutive_failures, last_error) VALUES ($1, now(), now() - interval '30 hours', $2, $3)
       ON CONFLICT (source) DO UPDATE SET last_attempt_at = excluded.last_attempt_at, last_success_at = excluded.last_success_at,
         consecutive_failures = excluded.consecutive_failures, last_error = excluded.last_error`,
      [source, failures, error],
    );
    await reload();
  };
  const readyz = async () => {
    const response = await harness.app.inject({ url: '/api/readyz' });
    return { code: response.statusCode, body: response.json(), text: response.body };
  };
  const listed = async () => (await api('GET', '/lists')).json();
  const versionOf = async (list: string) => (await listed()).data.find((v: { list: string }) => v.list === list);
  const metrics = async () => (await harness.app.inject({ url: '/api/metrics' })).body;
  const gauge = (text: string, name: string, label: string) => Number(new RegExp(`^${name}\\{${label}\\} (\\S+)$`, 'm').exec(text)?.[1]);
  const banner = async (url = '/console/visitors') => /<section class="lists-banner"[^]*?<\/section>/.exec((await admin.get(url)).body)?.[0];
  const events = (type: string) =>
    harness.database.owner<{ organization_id: string; data: Record<string, unknown> }>(
      'SELECT organization_id, data FROM event_outbox WHERE type = $1 ORDER BY id',
      [type],
    );
  const deliveries = async (endpointId: string) =>
    (await api('GET', `/webhook-endpoints/${endpointId}/deliveries`))
      .json()
      .data.map((d: { event_type: string }) => d.event_type)
      .sort();

  let subscriber: string;
  let bystander: string;
  before(async () => {
    harness = await buildTestApp({ env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:9' } });
    org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    await loadTestLists(harness);
    admin = await signedInUser(harness, org.organizationId, 'fso@example.com', 'admin');
    const endpoint = async (events: string[]) => {
      const response = await api('POST', '/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', events });
      assert.equal(response.statusCode, 201, response.body);
      return response.json().id as string;
    };
    subscriber = await endpoint(['lists.stale', 'lists.update_failed', 'lists.recovered']);
    bystander = await endpoint(['screening.completed']);
  });
  after(() => harness.close());

  test('lists just imported: ready, each version confirmed now and within its age, every source healthy, no banner', async () => {
    const ready = await readyz();
    assert.deepEqual([ready.code, ready.body.status, ready.body.checks.list_freshness], [200, 'ready', { ok: true }]);
    const body = await listed();
    assert.deepEqual([body.degraded, body.problems], [false, []]);
    const sdn = body.data.find((v: { list: string }) => v.list === 'OFAC_SDN');
    assert.ok(Date.now() - Date.parse(sdn.confirmed_at) < 60_000, sdn.confirmed_at);
    assert.deepEqual([sdn.age_hours, sdn.max_age_hours, sdn.stale, sdn.source, sdn.source_failing], [0, 48, false, 'ofacSdn', false]);
    const uvl = body.data.find((v: { list: string }) => v.list === 'BIS_UVL');
    assert.deepEqual([uvl.max_age_hours, uvl.source, uvl.stale], [72, 'csl', false]);
    const un = body.sources.find((s: { source: string }) => s.source === 'unSc');
    assert.deepEqual(un, {
      source: 'unSc',
      label: 'UN Security Council Consolidated List',
      lists: ['UN_SC'],
      last_attempt_at: null,
      last_success_at: null,
      consecutive_failures: 0,
      last_error: null,
      failing: false,
    });
    const text = await metrics();
    assert.equal(gauge(text, 'gatehouse_list_stale', 'list="OFAC_SDN"'), 0);
    assert.equal(gauge(text, 'gatehouse_list_max_age_seconds', 'list="OFAC_SDN"'), 48 * 3600);
    assert.ok(gauge(text, 'gatehouse_list_age_seconds', 'list="BIS_UVL"') < 60);
    assert.ok(Math.abs(gauge(text, 'gatehouse_list_last_success_timestamp_seconds', 'list="OFAC_SDN"') - Date.parse(sdn.confirmed_at) / 1000) < 1);
    assert.equal(gauge(text, 'gatehouse_list_source_consecutive_failures', 'source="unSc"'), 0);
    assert.equal(gauge(text, 'gatehouse_list_source_last_success_timestamp_seconds', 'source="unSc"'), 0, 'never succeeded');
    assert.equal(await banner(), undefined);
  });

  test('a list past its maximum age: readyz 200 degraded naming it, GET /lists and metrics mark it, every console page shows it, subscribers get lists.stale once', async () => {
    await ageList('OFAC_SDN', 50);
    const ready = await readyz();
    assert.equal(ready.code, 200, 'a load balancer keeps a degraded service');
    assert.equal(ready.body.status, 'degraded');
    assert.deepEqual(ready.body.checks.list_freshness, { ok: true, degraded: true, detail: 'OFAC_SDN was last confirmed current 2 days ago (maximum 2 days)' });

    const body = await listed();
    assert.deepEqual([body.degraded, body.problems], [true, ['OFAC_SDN was last confirmed current 2 days ago (maximum 2 days)']]);
    const sdn = body.data.find((v: { list: string }) => v.list === 'OFAC_SDN');
    assert.equal(sdn.stale, true);
    assert.ok(sdn.age_hours >= 50 && sdn.age_hours < 50.2, String(sdn.age_hours));
    assert.equal((await versionOf('BIS_UVL')).stale, false);

    const text = await metrics();
    assert.equal(gauge(text, 'gatehouse_list_stale', 'list="OFAC_SDN"'), 1);
    assert.equal(gauge(text, 'gatehouse_list_stale', 'list="BIS_UVL"'), 0);
    assert.ok(gauge(text, 'gatehouse_list_age_seconds', 'list="OFAC_SDN"') >= 50 * 3600);

    for (const url of ['/console/visitors', '/console/queue', '/console/webhooks', '/console/nowhere']) {
      const shown = await banner(url);
      assert.ok(shown, `${url} shows the banner`);
      assert.match(pageText(shown), /OFAC_SDN was last confirmed current 2 days ago \(at most 2 days allowed\); screenings still run against it/);
      assert.doesNotMatch(pageText(shown), /BIS_UVL/);
    }
    const signIn = await harness.app.inject({ url: '/console/sign-in' });
    assert.doesNotMatch(signIn.body, /lists-banner/, 'a stranger is not told');

    const stale = await events('lists.stale');
    const organizations = await harness.database.owner<{ id: string }>('SELECT id FROM organizations ORDER BY id');
    assert.deepEqual(
      stale.map((e) => e.organization_id).sort(),
      organizations.map((o) => o.id),
    );
    assert.deepEqual(Object.keys(stale[0]?.data ?? {}).sort(), ['confirmed_at', 'list', 'max_age_hours', 'version_id']);
    assert.deepEqual([stale[0]?.data.list, stale[0]?.data.max_age_hours], ['OFAC_SDN', 48]);
    await reload();
    assert.equal((await events('lists.stale')).length, organizations.length, 'sent once per run of trouble');
    assert.deepEqual(await deliveries(subscriber), ['lists.stale']);
    assert.deepEqual(await deliveries(bystander), []);
    const feed = (await api('GET', '/events?type=lists.stale')).json();
    assert.equal(feed.data.at(-1).data.list, 'OFAC_SDN');
  });

  test('confirmed current again: lists.recovered to subscribers, ready, and the banner is gone', async () => {
    await harness.database.db.listChecks.confirm(['OFAC_SDN']);
    await reload();
    const ready = await readyz();
    assert.deepEqual([ready.code, ready.body.status, ready.body.checks.list_freshness], [200, 'ready', { ok: true }]);
    assert.equal((await versionOf('OFAC_SDN')).stale, false);
    assert.deepEqual(await deliveries(subscriber), ['lists.recovered', 'lists.stale']);
    const [recovered] = await events('lists.recovered');
    assert.equal(recovered?.data.list, 'OFAC_SDN');
    assert.equal(await banner(), undefined);
  });

  test('a source that failed its last checks, with a token in its URL: degraded naming it without the token; its lists not stale; lists.update_failed, then lists.recovered', async () => {
    await failSource('csl', 2, `${FAILED_URL}: the server answered 503 Service Unavailable`);
    assert.equal((await readyz()).body.status, 'ready', 'two failures are tolerated (LISTS_FAILED_CHECKS_BEFORE_DEGRADED=3)');
    await failSource('csl', 3, `${FAILED_URL}: the server answered 503 Service Unavailable`);

    const ready = await readyz();
    assert.deepEqual([ready.code, ready.body.status], [200, 'degraded']);
    assert.equal(
      ready.body.checks.list_freshness.detail,
      'trade.gov Consolidated Screening List failed its last 3 checks: ' +
        'https://data.trade.gov/downloadable_consolidated_screening_list/v1/consolidated.csv?…: the server answered 503 Service Unavailable',
    );
    const body = await listed();
    const uvl = body.data.find((v: { list: string }) => v.list === 'BIS_UVL');
    assert.deepEqual([uvl.stale, uvl.source_failing], [false, true]);
    const csl = body.sources.find((s: { source: string }) => s.source === 'csl');
    assert.deepEqual([csl.consecutive_failures, csl.failing], [3, true]);
    assert.match(csl.last_error, /consolidated\.csv\?…: the server answered 503/);
    assert.ok(Date.now() - Date.parse(csl.last_success_at) > 29 * 3_600_000);
    const text = await metrics();
    assert.equal(gauge(text, 'gatehouse_list_source_consecutive_failures', 'source="csl"'), 3);
    assert.equal(gauge(text, 'gatehouse_list_stale', 'list="BIS_UVL"'), 0);

    const shown = pageText((await banner()) ?? '');
    assert.match(
      shown,
      /The checks of trade\.gov Consolidated Screening List \(BIS_EL, BIS_UVL, [^)]*\) failed 3 times in a row; the last success was 30 hours ago\./,
    );

    const [failed] = await events('lists.update_failed');
    assert.deepEqual([failed?.data.source, failed?.data.consecutive_failures], ['csl', 3]);
    assert.deepEqual(await deliveries(subscriber), ['lists.recovered', 'lists.stale', 'lists.update_failed']);
    const everything = [
      ready.text,
      JSON.stringify(body),
      text,
      shown,
      JSON.stringify(await events('lists.update_failed')),
      (await api('GET', '/events?type=lists.update_failed')).body,
    ];
    for (const shownSomewhere of everything) assert.doesNotMatch(shownSomewhere, new RegExp(SECRET));

    await harness.database.db.listChecks.recordSuccess('csl', { validators: {}, versionIds: [] });
    await reload();
    assert.equal((await readyz()).body.status, 'ready');
    const recovered = (await events('lists.recovered')).map((e) => e.data);
    assert.ok(recovered.some((data) => data.source === 'csl'));
    assert.deepEqual(await deliveries(subscriber), ['lists.recovered', 'lists.recovered', 'lists.stale', 'lists.update_failed']);
  });

  test('readyz stays 503 not_ready for a failed check, degraded or not', async () => {
    await ageList('BIS_UVL', 100);
    harness.app.readiness.add('probe_failing', async () => ({ ok: false, detail: 'down' }));
    const ready = await readyz();
    assert.deepEqual([ready.code, ready.body.status, ready.body.checks.list_freshness.degraded], [503, 'not_ready', true]);
  });

  test('OpenAPI documents degraded readiness, the freshness of each list and the health of each source', async () => {
    const spec = (await harness.app.inject({ url: '/api/v1/openapi.json' })).json();
    const readiness = spec.paths['/api/readyz'].get;
    assert.match(readiness.description, /200 `degraded`/);
    assert.match(JSON.stringify(readiness.responses['200'].content['application/json'].schema.properties.status), /"degraded"/);
    const version = spec.components.schemas.ListVersion.properties;
    for (const field of ['confirmed_at', 'age_hours', 'max_age_hours', 'stale', 'source', 'source_failing']) {
      assert.ok(version[field]?.description, `ListVersion.${field} is described`);
      assert.ok(version[field]?.examples, `ListVersion.${field} has an example`);
    }
    const answer = spec.paths['/api/v1/lists'].get.responses['200'].content['application/json'].schema.properties;
    for (const field of ['degraded', 'problems', 'sources']) assert.ok(answer[field]?.description, field);
    for (const [field, schema] of Object.entries(answer.sources.items.properties as Record<string, { description?: string }>))
      assert.ok(schema.description, `sources.${field}`);
    assert.match(spec.paths['/api/metrics'].get.description, /gatehouse_list_stale/);
  });
});
