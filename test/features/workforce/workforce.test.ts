/**
 * PUT /workforce/sync and the profile list through the API: all-or-nothing validation, upsert
 * and full modes, idempotence, listed names planted among clean ones, limits, and walls.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';
import { loadTestLists } from '../../helpers/test-lists.ts';

let harness: TestApp;
let org: TestTenant;

const sync = (payload: unknown, headers: Record<string, string> = {}, as = org) =>
  harness.app.inject({
    method: 'PUT',
    url: '/api/v1/workforce/sync',
    headers: { ...as.headers, 'content-type': 'application/json', ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
const synced = async (payload: unknown, as = org) => {
  const response = await sync(payload, {}, as);
  assert.equal(response.statusCode, 200, response.body);
  return response.json();
};
const get = (url: string, as = org) => harness.app.inject({ url: `/api/v1${url}`, headers: as.headers });
const count = async (sql: string, params: unknown[] = []) => (await harness.database.owner<{ n: number }>(sql, params))[0]?.n;

const people = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({
    external_id: `E-${from + i}`,
    name: `Placeholder Person Number${from + i} Qwerty`,
    citizenship: 'US',
    department: 'Ops',
  }));

before(async () => {
  harness = await buildTestApp();
  org = await createTenant(harness.database.owner, { tier: 'enterprise' });
  await loadTestLists(harness);
});
after(() => harness.close());

describe('workforce sync', () => {
  test('one bad profile refuses the whole payload, each problem pointed at, and nothing is stored', async () => {
    const profiles = [
      ...people(3),
      { external_id: 'E-1', name: 'Duplicate Id' },
      { external_id: 'E-9', name: 'Bad Country', country: 'QQ' },
      { external_id: 'E-10', name: '   ' },
      { external_id: 'E-11', name: 'Unknown Field', shoe_size: 44 },
    ];
    const refused = await sync({ mode: 'upsert', profiles: profiles.slice(0, 6) });
    assert.equal(refused.statusCode, 400);
    assert.deepEqual(
      refused.json().errors.map((e: { pointer: string }) => e.pointer),
      ['/profiles/3/external_id', '/profiles/4/country', '/profiles/5/name'],
    );
    const schema = await sync({ mode: 'merge', profiles: [profiles[6]] });
    assert.deepEqual(
      schema
        .json()
        .errors.map((e: { pointer: string }) => e.pointer)
        .sort(),
      ['/mode', '/profiles/0/shoe_size'],
    );
    assert.equal(await count('SELECT count(*)::int AS n FROM workforce_profiles'), 0);
    assert.equal(await count('SELECT count(*)::int AS n FROM workforce_syncs'), 0);
  });

  test('new profiles are screened; planted listed names open cases; the same payload again changes nothing', async () => {
    const payload = {
      mode: 'upsert',
      profiles: [
        ...people(20),
        { external_id: 'P-1', name: 'Karim Yusuf Abu-Ali', citizenship: 'IR' },
        { external_id: 'P-2', name: 'Dmitri Sergeyevich Volkov', date_of_birth: '1970-04-03' },
      ],
    };
    const first = await synced(payload);
    assert.equal(first.object, 'workforce_sync');
    assert.match(first.id, /^wfs_/);
    assert.equal(first.status, 'completed');
    assert.deepEqual(first.counts, { created: 22, updated: 0, unchanged: 0, deactivated: 0, screened: 22, potential_matches: 2, cases_opened: 2 });
    const screenings = await harness.database.owner<{ source: string; case_id: string | null; reference: string }>(
      "SELECT source, case_id, reference FROM screenings WHERE organization_id = $1 AND source = 'workforce' ORDER BY reference",
      [org.organizationId],
    );
    assert.equal(screenings.length, 22);
    assert.deepEqual(
      screenings.filter((s) => s.case_id).map((s) => s.reference),
      ['P-1', 'P-2'],
    );
    const flagged = (await get('/workforce/profiles?outcome=potential_match')).json();
    assert.deepEqual(flagged.data.map((p: { external_id: string }) => p.external_id).sort(), ['P-1', 'P-2']);
    assert.match(flagged.data[0].case_id, /^case_/);

    const again = await synced(payload);
    assert.deepEqual(again.counts, { created: 0, updated: 0, unchanged: 22, deactivated: 0, screened: 0, potential_matches: 0, cases_opened: 0 });
    assert.equal(await count("SELECT count(*)::int AS n FROM screenings WHERE source = 'workforce'"), 22, 'no screening the second time');
    assert.equal(await count("SELECT count(*)::int AS n FROM cases WHERE source = 'workforce'"), 2, 'no new case');

    const readBack = (await get(`/workforce/syncs/${first.id}`)).json();
    assert.deepEqual([readBack.id, readBack.counts], [first.id, first.counts]);
    const audits = await harness.database.owner<{ action: string }>('SELECT action FROM audit_events WHERE target_id = $1 ORDER BY seq', [first.id]);
    assert.deepEqual(
      audits.map((a) => a.action),
      ['workforce.sync_started', 'workforce.sync_completed'],
    );
    const recordedBy = await harness.database.owner<{ audit_hash: string; started: string }>(
      `SELECT DISTINCT s.audit_hash, encode(a.hash, 'hex') AS started FROM screenings s, audit_events a
        WHERE s.organization_id = $1 AND a.organization_id = s.organization_id AND s.source = 'workforce' AND a.target_id = $2 AND a.action = 'workforce.sync_started'`,
      [org.organizationId, first.id],
    );
    assert.deepEqual(
      recordedBy.map((r) => r.audit_hash),
      [recordedBy[0]?.started],
      "every screening names the sync's one audit event",
    );
    const [event] = await harness.database.owner<{ data: { sync_id: string; created: number } }>(
      "SELECT data FROM event_outbox WHERE type = 'workforce.sync_completed' AND data->>'sync_id' = $1",
      [first.id],
    );
    assert.equal(event?.data.created, 22);
    const screeningAudits = await count("SELECT count(*)::int AS n FROM audit_events WHERE action = 'screening.created' AND organization_id = $1", [
      org.organizationId,
    ]);
    assert.equal(screeningAudits, 0, 'the sync records its screenings under its own audit event');
  });

  test('a change that screening reads is screened again; one it does not read is stored without screening; full mode deactivates the absent', async () => {
    const base = people(5, 100);
    await synced({ mode: 'upsert', profiles: base });
    const changed = base.map((p, i) => (i === 0 ? { ...p, department: 'Finance' } : i === 1 ? { ...p, name: `${p.name} Junior` } : p));
    const upsert = await synced({ mode: 'upsert', profiles: changed });
    assert.deepEqual([upsert.counts.updated, upsert.counts.unchanged, upsert.counts.screened], [2, 3, 1]);

    // The earlier syncs' profiles are absent too: far past the shrink limit, which this test is not about.
    const full = await synced({ mode: 'full', allow_shrink: true, profiles: changed.slice(0, 3) });
    assert.ok(full.counts.deactivated >= 2, "E-103 and E-104 (and the earlier syncs' profiles) are deactivated");
    const inactive = (await get('/workforce/profiles?status=inactive&external_id=E-104')).json().data;
    assert.equal(inactive[0]?.status, 'inactive');
    const back = await synced({ mode: 'upsert', profiles: [changed[4]] });
    assert.deepEqual([back.counts.updated, back.counts.screened], [1, 1], 'a profile back from inactive is screened again');
  });

  test('identifiers are kept with the profile and screened; a changed identifier screens again; a bad one is pointed at', async () => {
    const profile = {
      external_id: 'ID-1',
      name: 'Imogen Fairweather-Stokes',
      citizenship: 'GB',
      identifiers: [{ type: 'passport', value: '123 456 789', country: 'gb' }],
    };
    const first = await synced({ mode: 'upsert', profiles: [profile] });
    assert.deepEqual([first.counts.created, first.counts.screened], [1, 1]);
    const [stored] = (await get('/workforce/profiles?external_id=ID-1')).json().data;
    assert.deepEqual(stored.profile.identifiers, [{ type: 'passport', value: '123 456 789', country: 'GB' }]);
    const screening = (await get(`/screenings/${stored.latest_screening_id}`)).json();
    assert.deepEqual(screening.input.identifiers, [{ type: 'passport', value: '123 456 789', country: 'GB' }]);
    assert.equal((await synced({ mode: 'upsert', profiles: [profile] })).counts.unchanged, 1);
    const renewed = await synced({ mode: 'upsert', profiles: [{ ...profile, identifiers: [{ type: 'passport', value: '987654321', country: 'GB' }] }] });
    assert.deepEqual([renewed.counts.updated, renewed.counts.screened], [1, 1], 'a new passport is screened');
    const refused = await sync({ mode: 'upsert', profiles: [{ ...profile, identifiers: [{ type: 'lei', value: '253400V1H6ART1UQ0N98' }] }] });
    assert.deepEqual(
      refused.json().errors.map((e: { pointer: string }) => e.pointer),
      ['/profiles/0/identifiers/0/type'],
    );
  });

  test('an Idempotency-Key replays the first answer; the same key with another payload is refused', async () => {
    const payload = { mode: 'upsert', profiles: people(2, 200) };
    const first = await sync(payload, { 'idempotency-key': 'sync-1' });
    const replay = await sync(payload, { 'idempotency-key': 'sync-1' });
    assert.equal(replay.json().id, first.json().id);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    const other = await sync({ mode: 'upsert', profiles: people(1, 300) }, { 'idempotency-key': 'sync-1' });
    assert.equal(other.statusCode, 409);
    assert.equal(other.json().code, 'idempotency_key_reused');
  });

  test('profiles come in stable pages, filtered by status, outcome and external id', async () => {
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { id: string }[]; next_cursor: string | null; has_more: boolean } = (
        await get(`/workforce/profiles?limit=7${cursor ? `&cursor=${cursor}` : ''}`)
      ).json();
      all.push(...page.data.map((p) => p.id));
      cursor = page.next_cursor;
    } while (cursor);
    assert.equal(new Set(all).size, all.length);
    assert.equal(all.length, await count('SELECT count(*)::int AS n FROM workforce_profiles WHERE organization_id = $1', [org.organizationId]));
    assert.equal((await get('/workforce/profiles?cursor=x')).statusCode, 400);
  });

  test('limits: 50,000 profiles, 25 MiB, JSON only, well-formed', async () => {
    const tooMany = await sync({ mode: 'upsert', profiles: Array.from({ length: 50_001 }, (_, i) => ({ external_id: `X${i}`, name: 'A B' })) });
    assert.deepEqual([tooMany.statusCode, tooMany.json().errors[0].pointer], [400, '/profiles']);
    const huge = await sync(
      `{"mode":"upsert","profiles":[${Array.from({ length: 120_000 }, (_, i) => `{"external_id":"H${i}","name":"${'x'.repeat(200)}"}`).join(',')}]}`,
    );
    assert.equal(huge.statusCode, 413);
    assert.match(huge.json().detail, /26,214,400 bytes \(25 MiB\)/);
    const malformed = await sync('{"mode":"upsert","profiles":[{"external_id":"A","name":"B"},,]}');
    assert.deepEqual([malformed.statusCode, malformed.json().code], [400, 'malformed_json']);
    const text = await harness.app.inject({
      method: 'PUT',
      url: '/api/v1/workforce/sync',
      headers: { ...org.headers, 'content-type': 'text/csv' },
      payload: 'a,b',
    });
    assert.equal(text.statusCode, 415);
  });

  test("another organization's profiles and syncs are invisible, and a Defense-tier key gets tier_required", async () => {
    const other = await createTenant(harness.database.owner, { tier: 'enterprise' });
    assert.deepEqual((await get('/workforce/profiles', other)).json().data, []);
    const mine = await synced({ mode: 'upsert', profiles: people(1, 400) });
    const response = await get(`/workforce/syncs/${mine.id}`, other);
    assert.deepEqual([response.statusCode, response.json().code], [404, 'not_found']);
    const defense = await createTenant(harness.database.owner, { tier: 'defense' });
    assert.equal((await sync({ mode: 'upsert', profiles: [] }, {}, defense)).json().code, 'tier_required');
  });
});

describe('the shrink guard of a full sync', () => {
  const activeCount = (tenant: TestTenant) =>
    count("SELECT count(*)::int AS n FROM workforce_profiles WHERE organization_id = $1 AND status = 'active'", [tenant.organizationId]);
  const syncCount = (tenant: TestTenant) => count('SELECT count(*)::int AS n FROM workforce_syncs WHERE organization_id = $1', [tenant.organizationId]);

  test('deactivating more than 10% of the active profiles is refused with the counts, and nothing changes; under the limit passes; allow_shrink lifts it', async () => {
    const tenant = await createTenant(harness.database.owner, { tier: 'enterprise' });
    const staff = people(60, 5000);
    await synced({ mode: 'upsert', profiles: staff }, tenant);
    const auditsBefore = await count('SELECT count(*)::int AS n FROM audit_events WHERE organization_id = $1', [tenant.organizationId]);

    const refused = await sync({ mode: 'full', profiles: staff.slice(0, 50) }, {}, tenant);
    assert.equal(refused.statusCode, 409, refused.body);
    assert.match(String(refused.headers['content-type']), /^application\/problem\+json/);
    const problem = refused.json();
    assert.equal(problem.code, 'sync_shrink_refused');
    assert.deepEqual(
      [problem.active_profiles, problem.profiles_in_request, problem.would_deactivate, problem.deactivation_limit, problem.limit_percent],
      [60, 50, 10, 6, 10],
    );
    assert.match(problem.detail, /deactivate 10 of the organization's 60 active profiles/);
    assert.equal(await activeCount(tenant), 60, 'nobody was deactivated');
    assert.equal(await syncCount(tenant), 1, 'no sync was recorded');
    assert.equal(
      await count('SELECT count(*)::int AS n FROM audit_events WHERE organization_id = $1', [tenant.organizationId]),
      auditsBefore,
      'nothing was audited as started',
    );

    const underLimit = await synced({ mode: 'full', profiles: staff.slice(0, 54) }, tenant);
    assert.equal(underLimit.counts.deactivated, 6, '6 of 60 is within 10%');
    assert.equal(await activeCount(tenant), 54);

    const override = await synced({ mode: 'full', allow_shrink: true, profiles: staff.slice(0, 10) }, tenant);
    assert.equal(override.counts.deactivated, 44);
    assert.equal(await activeCount(tenant), 10);
  });

  test('a small organization may lose a few people in one sync, but never all of them without allow_shrink', async () => {
    const tenant = await createTenant(harness.database.owner, { tier: 'enterprise' });
    const staff = people(3, 6000);
    await synced({ mode: 'upsert', profiles: staff }, tenant);
    const oneLeft = await synced({ mode: 'full', profiles: staff.slice(0, 2) }, tenant);
    assert.equal(oneLeft.counts.deactivated, 1, '1 of 3 is ordinary turnover, within the minimum of 5');

    const empty = await sync({ mode: 'full', profiles: [] }, {}, tenant);
    assert.equal(empty.statusCode, 409, empty.body);
    assert.deepEqual([empty.json().active_profiles, empty.json().would_deactivate, empty.json().deactivation_limit], [2, 2, 1]);
    assert.equal(await activeCount(tenant), 2);

    const emptied = await synced({ mode: 'full', allow_shrink: true, profiles: [] }, tenant);
    assert.equal(emptied.counts.deactivated, 2);
    assert.equal(await activeCount(tenant), 0);
  });

  test('an upsert never deactivates the absent, so it is never refused', async () => {
    const tenant = await createTenant(harness.database.owner, { tier: 'enterprise' });
    await synced({ mode: 'upsert', profiles: people(20, 7000) }, tenant);
    const upsert = await synced({ mode: 'upsert', profiles: people(1, 7000) }, tenant);
    assert.deepEqual([upsert.counts.unchanged, upsert.counts.deactivated], [1, 0]);
  });
});

describe('country holds in the workforce', () => {
  test('a citizen of a comprehensively sanctioned country is held with no name match: a case, counted as a potential match', async () => {
    const held = await synced({
      mode: 'upsert',
      profiles: [
        { external_id: 'H-1', name: 'Ri Yong-su', citizenship: 'KP' },
        { external_id: 'H-2', name: 'Ingrid Solberg-Haugen', citizenship: 'NO' },
      ],
    });
    assert.deepEqual([held.counts.screened, held.counts.potential_matches, held.counts.cases_opened], [2, 1, 1]);
    const [kp] = (await get('/workforce/profiles?external_id=H-1')).json().data;
    assert.equal(kp.latest_outcome, 'potential_match');
    assert.match(kp.case_id, /^case_/);
    const [no] = (await get('/workforce/profiles?external_id=H-2')).json().data;
    assert.deepEqual([no.latest_outcome, no.case_id], ['clear', null]);
  });
});
