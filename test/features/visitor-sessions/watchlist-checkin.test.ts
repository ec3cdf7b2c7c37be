/**
 * Check-in against the organization's watchlists: what the door does follows the entry's severity
 * as the rules map it. Red denies (the case opens DENIED, decided by the rules, and the visitor is
 * denied); orange holds the visitor on an OPEN case, as a public-list match does; yellow admits
 * the visitor with a case opened for review. Under four-eyes on DENIED the rules' DENIED waits for
 * one person to confirm it, the visitor held meanwhile. A prescreen stands for the door only while
 * the watchlists it consulted are unchanged.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTenant, personHeaders, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';
import { loadTestLists } from '../../helpers/test-lists.ts';
import { type WatchlistRows, watchlistRows } from '../../helpers/watchlist-rows.ts';

describe('check-in against watchlists', () => {
  let harness: TestApp;
  let org: TestTenant;
  let rows: WatchlistRows;
  let watchlist: string;

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers = org.headers) =>
    harness.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload && { payload }) });
  const checkIn = async (visitor: object, extra: object = {}) => {
    const response = await call('POST', '/checkin', { visitor, site: 'HQ', ...extra });
    assert.equal(response.statusCode, 201, response.body);
    return response.json();
  };
  const caseOf = async (id: string) => (await call('GET', `/adjudication/${id}`)).json();
  const putRules = async (rules: object) => assert.equal((await call('PUT', '/adjudication/rules', rules)).statusCode, 200);

  before(async () => {
    harness = await buildTestApp({ env: { CHECKIN_PRESCREEN_FRESHNESS_HOURS: '24' } });
    org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    await loadTestLists(harness);
    rows = watchlistRows(harness, org);
    watchlist = await rows.createWatchlist({ slug: 'security', name: 'Security office' });
    await rows.addEntries(watchlist, [
      { names: ['Dorian Vexley-Strand'], severity: 'red', reason: 'Threatened a guard; trespass notice served.' },
      { names: ['Philippa Amberstone'], severity: 'orange', reason: 'Former employee, access under review.' },
      { names: ['Cassius Orwell-Hinde'], severity: 'yellow', reason: 'Unpaid parking fines; note for the desk.' },
    ]);
  });
  after(() => harness.close());

  test('red: the case opens DENIED, decided by the rules and recorded so, and the visitor is denied', async () => {
    const denied = await checkIn({ name: 'Dorian Vexley-Strand' });
    assert.deepEqual([denied.status, denied.on_site], ['denied', false]);
    const kase = await caseOf(denied.case_id);
    assert.equal(kase.status, 'DENIED');
    assert.ok(kase.closed_at, 'a DENIED case is closed');
    const [opened] = kase.history;
    assert.deepEqual([opened.action, opened.to_status, opened.disposition], ['opened', 'DENIED', 'DENIED']);
    assert.match(opened.reason, /adjudication rules \(v0\): watchlists\.red is deny; matched ORG:security wle_/);
    assert.deepEqual([opened.details.decided_by, opened.details.rule_decision], ['rules', 'applied']);
    assert.doesNotMatch(opened.reason, /Dorian/, 'entry ids, never names');
    const screening = (await call('GET', `/screenings/${denied.screening_id}`)).json();
    assert.deepEqual([screening.case_status, screening.matches[0].watchlist.severity], ['DENIED', 'red']);
  });

  test('orange: the visitor waits on an OPEN case, as on a public-list match; clearing the case lets them in', async () => {
    const waiting = await checkIn({ name: 'Philippa Amberstone' });
    assert.deepEqual([waiting.status, waiting.on_site], ['pending_review', false]);
    assert.equal((await caseOf(waiting.case_id)).status, 'OPEN');
    const cleared = await call('POST', `/adjudication/${waiting.case_id}/disposition`, { disposition: 'CLEARED', reason: 'Access restored by HR.' });
    assert.equal(cleared.statusCode, 200, cleared.body);
    assert.equal((await call('GET', `/sessions/${waiting.id}`)).json().status, 'checked_in');
  });

  test('yellow: the visitor is checked in and a case opens for review; a later DENIED escalates the visit', async () => {
    const admitted = await checkIn({ name: 'Cassius Orwell-Hinde' });
    assert.deepEqual([admitted.status, admitted.on_site], ['checked_in', true]);
    assert.match(admitted.case_id, /^case_/);
    assert.equal((await caseOf(admitted.case_id)).status, 'OPEN');
    const denied = await call('POST', `/adjudication/${admitted.case_id}/disposition`, { disposition: 'DENIED', reason: 'Security office: escort out.' });
    assert.equal(denied.statusCode, 200, denied.body);
    const session = (await call('GET', `/sessions/${admitted.id}`)).json();
    assert.deepEqual([session.status, session.on_site], ['escalated', true], 'inside already: escalated for the desk, not sent back to a door');
  });

  test('the strictest wins: a yellow entry beside a public-list match holds the visitor', async () => {
    await rows.addEntries(watchlist, [{ names: ['Karim Yusuf Abu-Ali'], severity: 'yellow', reason: 'Same name as a listed man.' }]);
    const held = await checkIn({ name: 'Karim Yusuf Abu-Ali', citizenship: 'LB' });
    const screening = (await call('GET', `/screenings/${held.screening_id}`)).json();
    assert.deepEqual(screening.matches.map((m: { list: string }) => m.list).sort(), ['OFAC_SDN', 'ORG:security']);
    assert.equal(held.status, 'pending_review');
  });

  test('the rules decide what each severity does', async () => {
    await putRules({ watchlists: { red: 'hold', yellow: 'hold' } });
    try {
      assert.equal((await checkIn({ name: 'Dorian Vexley-Strand' })).status, 'pending_review');
      assert.equal((await checkIn({ name: 'Cassius Orwell-Hinde' })).status, 'pending_review');
    } finally {
      await putRules({});
    }
  });

  test("under four-eyes on DENIED, the rules' DENIED waits for one person to confirm it, the visitor held meanwhile", async () => {
    await putRules({ four_eyes: { denied: true } });
    try {
      const held = await checkIn({ name: 'Dorian Vexley-Strand' });
      assert.equal(held.status, 'pending_review');
      const kase = await caseOf(held.case_id);
      assert.deepEqual([kase.status, kase.pending_decision?.disposition, kase.pending_decision?.actor], ['OPEN', 'DENIED', 'rules:watchlists']);
      assert.equal(kase.history[0].details.rule_decision, 'pending');
      const byKey = await call('POST', `/adjudication/${held.case_id}/disposition`, { disposition: 'DENIED', reason: 'Agreed.' });
      assert.deepEqual([byKey.statusCode, byKey.json().code], [409, 'second_reviewer_required'], "a second review is a person's");
      const person = await personHeaders(harness.database.db, org.organizationId, 'adjudicator', 'fso@example.com');
      const confirmed = await call('POST', `/adjudication/${held.case_id}/disposition`, { disposition: 'DENIED', reason: 'Confirmed: the same man.' }, person);
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      assert.equal((await call('GET', `/sessions/${held.id}`)).json().status, 'denied');
    } finally {
      await putRules({});
    }
  });

  test('a prescreen stands for the door only while the watchlists it consulted are unchanged', async () => {
    const visitor = { name: 'Rosalind Featherstonehaugh', citizenship: 'GB' };
    const prescreenOf = async () => (await call('POST', '/prescreen', { subject: visitor.name, nationality: visitor.citizenship })).json();
    const first = await prescreenOf();
    assert.equal((await checkIn(visitor, { prescreen_id: first.id })).prescreen_reused, true);
    const second = await prescreenOf();
    await rows.addEntries(watchlist, [{ names: ['Rosalind Featherstonehaugh'], severity: 'red', reason: 'Added after her prescreen.' }]);
    const atTheDoor = await checkIn(visitor, { prescreen_id: second.id });
    assert.deepEqual([atTheDoor.prescreen_reused, atTheDoor.prescreen.reason, atTheDoor.status], [false, 'lists_changed', 'denied']);
  });
});
