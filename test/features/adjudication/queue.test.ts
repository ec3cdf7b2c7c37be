/**
 * The adjudication rules and the queue through the API: versions, validation with pointers,
 * thresholds that change what alerts, and a queue whose order, filters and pages hold while new
 * cases arrive.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createKey, createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';
import { loadTestLists } from '../../helpers/test-lists.ts';

let harness: TestApp;
let org: TestTenant;

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers = org.headers) =>
  harness.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload && { payload }) });
const prescreen = async (payload: object, as = org) => {
  const response = await call('POST', '/prescreen', payload, as.headers);
  assert.equal(response.statusCode, 201, response.body);
  return response.json();
};
const queue = async (query = '', as = org) => {
  const response = await call('GET', `/adjudication/queue${query}`, undefined, as.headers);
  assert.equal(response.statusCode, 200, response.body);
  return response.json();
};

before(async () => {
  harness = await buildTestApp();
  org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
  await loadTestLists(harness);
});
after(() => harness.close());

describe('rules', () => {
  test('version 0 is the defaults; each PUT writes the next version whole, audited', async () => {
    const defaults = (await call('GET', '/adjudication/rules')).json();
    assert.equal(defaults.version, 0);
    assert.equal(defaults.rules.thresholds.match, 0.8);
    assert.deepEqual(defaults.rules.sla_hours, { critical: 4, high: 24, medium: 72, low: 168 });
    assert.deepEqual(
      defaults.rules.country_holds,
      { prohibited_regimes: ['OFAC_COMPREHENSIVE', 'OFAC_REGION', 'ITAR_126_1', 'EAR_E1', 'EAR_E2'], sources: ['prescreen', 'checkin', 'vendor', 'workforce'] },
      'a prohibited country holds by default, in every first screening',
    );

    const put = await call('PUT', '/adjudication/rules', { thresholds: { lists: { bis_uvl: 0.9 } }, four_eyes: { denied: true } });
    assert.equal(put.statusCode, 200, put.body);
    assert.equal(put.json().version, 1);
    assert.deepEqual(put.json().rules.thresholds, { match: 0.8, lists: { BIS_UVL: 0.9 }, auto_clear_band: 0 });
    assert.equal(put.json().rules.four_eyes.denied, true);
    assert.equal(put.json().created_by, `api_key:${org.keyId}`);
    const second = (await call('PUT', '/adjudication/rules', {})).json();
    assert.deepEqual([second.version, second.rules], [2, defaults.rules], 'a PUT replaces the whole set: left out means default');
    assert.equal((await call('GET', '/adjudication/rules')).json().version, 2);
    const audits = await harness.database.owner<{ target_id: string }>(
      "SELECT target_id FROM audit_events WHERE action = 'adjudication_rules.updated' AND organization_id = $1 ORDER BY seq",
      [org.organizationId],
    );
    assert.deepEqual(
      audits.map((a) => a.target_id),
      ['1', '2'],
    );
  });

  test('every problem is refused at once with a pointer, and nothing is written', async () => {
    const before = (await call('GET', '/adjudication/rules')).json().version;
    const schemaErrors = await call('PUT', '/adjudication/rules', {
      thresholds: { match: 1.5, auto_clear_band: -1 },
      escalation: { country_flags: ['NARNIA'] },
      country_holds: { prohibited_regimes: ['OFAC_EVERYTHING'], sources: ['rescreen'] },
      four_eyes: { sometimes: true },
      sla_hours: { high: 0 },
      colour: 'blue',
    });
    assert.equal(schemaErrors.statusCode, 400);
    assert.deepEqual(
      schemaErrors
        .json()
        .errors.map((e: { pointer: string }) => e.pointer)
        .sort(),
      [
        '/colour',
        '/country_holds/prohibited_regimes/0',
        '/country_holds/sources/0',
        '/escalation/country_flags/0',
        '/four_eyes/sometimes',
        '/sla_hours/high',
        '/thresholds/auto_clear_band',
        '/thresholds/match',
      ],
    );
    const meaningErrors = await call('PUT', '/adjudication/rules', {
      thresholds: { match: 0.6, lists: { NOT_A_LIST: 0.9 }, auto_clear_band: 0.2 },
      escalation: { lists: ['OFAC_SDN', 'MADE_UP'] },
      sla_hours: { critical: 48 },
    });
    assert.equal(meaningErrors.statusCode, 400);
    assert.deepEqual(
      meaningErrors.json().errors.map((e: { pointer: string }) => e.pointer),
      ['/thresholds/lists/NOT_A_LIST', '/escalation/lists/1', '/thresholds/auto_clear_band', '/sla_hours/high'],
    );
    assert.match(meaningErrors.json().detail, /MADE_UP is not a list/);
    assert.equal((await call('GET', '/adjudication/rules')).json().version, before);
  });

  test('only an admin may change them', async () => {
    const standard = await createKey(harness.database.owner, org.organizationId);
    const refused = await call('PUT', '/adjudication/rules', {}, standard.headers);
    assert.deepEqual([refused.statusCode, refused.json().code], [403, 'role_required']);
    assert.equal((await call('GET', '/adjudication/rules', undefined, standard.headers)).statusCode, 200);
  });

  test('thresholds per list decide what alerts; the auto-clear band keeps near misses without alerting', async () => {
    const name = { company: 'Quillon Precision Component' }; // one letter short of the listed name
    const before = await prescreen(name);
    assert.equal(before.outcome, 'potential_match');
    const score = before.matches[0].score as number;
    assert.ok(score < 1 && score > 0.8, String(score));

    await call('PUT', '/adjudication/rules', { thresholds: { lists: { BIS_UVL: Math.min(1, score + 0.01) }, auto_clear_band: 0.05 } });
    const after = await prescreen(name);
    assert.deepEqual([after.outcome, after.case_id, after.matches.length], ['clear', null, 0]);
    assert.equal(after.auto_cleared_matches[0].entry_id, before.matches[0].entry_id);
    assert.equal(after.auto_cleared_matches[0].threshold, Math.min(1, score + 0.01));
    assert.deepEqual(after.thresholds.lists, { BIS_UVL: Math.min(1, score + 0.01) });
    assert.equal((await prescreen({ company: 'Northwind Maritime LLC' })).outcome, 'potential_match', 'other lists keep the general threshold');
    await call('PUT', '/adjudication/rules', {});
  });
});

describe('the queue', () => {
  let queueOrg: TestTenant;
  const ids: Record<string, string> = {};

  before(async () => {
    queueOrg = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    // In order of creation: high (UVL exact), critical (SDN exact), high (UVL exact), medium (UVL typo).
    ids.uvlFirst = (await prescreen({ company: 'Zephyr Quantum Electronics Trading' }, queueOrg)).case_id;
    ids.sdn = (await prescreen({ subject: 'Karim Yusuf Abu-Ali' }, queueOrg)).case_id;
    ids.uvlSecond = (await prescreen({ company: 'Marlowe Gyroscope Instruments' }, queueOrg)).case_id;
    ids.typo = (await prescreen({ company: 'Marlow Gyroscop Instrument' }, queueOrg)).case_id;
    for (const id of Object.values(ids)) assert.match(id, /^case_/);
  });

  test('open and escalated cases by priority, then age; totals by status; each with what was screened', async () => {
    const page = await queue('', queueOrg);
    assert.deepEqual(
      page.data.map((c: { id: string }) => c.id),
      [ids.sdn, ids.uvlFirst, ids.uvlSecond, ids.typo],
    );
    assert.deepEqual(
      page.data.map((c: { priority: string }) => c.priority),
      ['critical', 'high', 'high', 'medium'],
    );
    assert.deepEqual([page.has_more, page.next_cursor, page.totals], [false, null, { OPEN: 4 }]);
    assert.deepEqual(page.data[0].subject, { subject: 'Karim Yusuf Abu-Ali', type: 'person' });
    assert.deepEqual([page.data[0].top_match.list, page.data[0].top_match.entry_id], ['OFAC_SDN', '10001']);
  });

  test('filters: status, list, minimum score, source, assignee, creation time, overdue', async () => {
    const idsOf = async (query: string) => (await queue(query, queueOrg)).data.map((c: { id: string }) => c.id);
    const escalate = await call('POST', `/adjudication/${ids.uvlSecond}/disposition`, { disposition: 'ESCALATED', reason: 'senior review' }, queueOrg.headers);
    assert.equal(escalate.statusCode, 200);
    assert.deepEqual(await idsOf('?status=ESCALATED'), [ids.uvlSecond]);
    assert.deepEqual(await idsOf('?status=OPEN&status=ESCALATED&list=ofac_sdn'), [ids.sdn]);
    assert.deepEqual(await idsOf('?list=BIS_UVL&min_score=0.99'), [ids.uvlFirst, ids.uvlSecond]);
    assert.deepEqual(await idsOf('?source=vendor'), []);
    await call('POST', `/adjudication/${ids.typo}/assign`, { assignee: 'fso@example.com' }, queueOrg.headers);
    assert.deepEqual(await idsOf('?assignee=fso%40example.com'), [ids.typo]);
    const sdnCase = (await call('GET', `/adjudication/${ids.sdn}`, undefined, queueOrg.headers)).json();
    assert.deepEqual(await idsOf(`?created_after=${encodeURIComponent(sdnCase.created_at)}`), [ids.uvlSecond, ids.typo]);
    assert.deepEqual(await idsOf(`?created_before=${encodeURIComponent(sdnCase.created_at)}`), [ids.uvlFirst]);
    assert.deepEqual(await idsOf('?overdue=true'), []);
    await harness.database.owner("UPDATE cases SET sla_due_at = now() - interval '1 minute' WHERE id = $1", [ids.uvlFirst]);
    assert.deepEqual(await idsOf('?overdue=true'), [ids.uvlFirst]);
    assert.equal((await queue('', queueOrg)).data.find((c: { id: string }) => c.id === ids.uvlFirst).overdue, true);
    assert.equal((await queue('?status=ESCALATED', queueOrg)).totals.ESCALATED, 1);
  });

  test('pages are stable while cases arrive: none repeats, none of those there at the start is skipped', async () => {
    const start = (await queue('', queueOrg)).data.map((c: { id: string }) => c.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let arrivals = 0;
    do {
      const page = await queue(`?limit=1${cursor ? `&cursor=${cursor}` : ''}`, queueOrg);
      assert.ok(page.data.length <= 1);
      seen.push(...page.data.map((c: { id: string }) => c.id));
      cursor = page.next_cursor;
      assert.equal(page.has_more, cursor !== null);
      // A critical case (sorts before the cursor) and a low one (after it) arrive between pages.
      if (arrivals < 2) {
        await prescreen({ subject: 'Karim Yusuf Abu-Ali', nationality: arrivals === 0 ? 'IR' : 'SY' }, queueOrg);
        arrivals += 1;
      }
    } while (cursor);
    assert.equal(new Set(seen).size, seen.length, 'no case twice');
    for (const id of start) assert.ok(seen.includes(id), `${id} was there at the start and must be seen`);
  });

  test('a cursor that is not one the queue produced is a 400 on the cursor; a limit over 200 too', async () => {
    for (const query of ['?cursor=not-a-cursor', `?cursor=${Buffer.from('{"r":"x"}').toString('base64url')}`, '?limit=201', '?min_score=2']) {
      const response = await call('GET', `/adjudication/queue${query}`, undefined, queueOrg.headers);
      assert.equal(response.statusCode, 400, query);
      assert.equal(response.json().errors[0].in, 'query', query);
    }
  });

  test('a case a country hold opened with no name match is queued by its priority, with no top match and the country rule as its reason', async () => {
    const holdOrg = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    const held = await prescreen({ subject: 'Reza Ahmadi', nationality: 'IR' }, holdOrg);
    const listed = await prescreen({ subject: 'Karim Yusuf Abu-Ali' }, holdOrg);
    const page = await queue('', holdOrg);
    assert.deepEqual(
      page.data.map((c: { id: string }) => c.id),
      [listed.case_id, held.case_id],
    );
    const row = page.data[1];
    assert.deepEqual(
      [row.priority, row.score, row.lists, row.top_match, row.subject],
      ['medium', 0, [], null, { subject: 'Reza Ahmadi', nationality: 'IR', type: 'person' }],
    );
    assert.ok(row.priority_reasons.includes('country rule: OFAC_COMPREHENSIVE (IR) — nationality IR'), row.priority_reasons.join(' | '));
    const idsOf = async (query: string) => (await queue(query, holdOrg)).data.map((c: { id: string }) => c.id);
    assert.deepEqual(await idsOf('?list=OFAC_SDN'), [listed.case_id], 'a list filter asks for name matches');
    assert.deepEqual(await idsOf('?min_score=0.5'), [listed.case_id]);
    assert.deepEqual(await idsOf('?source=prescreen'), [listed.case_id, held.case_id]);
  });
});
