/**
 * Working cases in the console: the queue (filters, overdue, pages), a case (matches beside their
 * list entries, country flags, history, evidence), decisions with four-eyes review by two people,
 * the viewer who may only look, CSRF refusals, and another organization's case answering 404.
 * Every refused request leaves the case as it was.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type ConsoleClient, pageText, signedInUser } from '../../helpers/console-client.ts';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';
import { loadTestLists, SDN_ROWS, sdnList, uvlList } from '../../helpers/test-lists.ts';

let harness: TestApp;
let org: TestTenant;
let stranger: TestTenant;
let adjudicator: ConsoleClient;
let second: ConsoleClient;
let viewer: ConsoleClient;

const api = async (as: TestTenant, method: 'POST' | 'PUT', url: string, payload: object) => {
  const response = await harness.app.inject({ method, url: `/api/v1${url}`, headers: as.headers, payload });
  assert.ok(response.statusCode < 300, response.body);
  return response.json();
};
/** A case opened by a prescreen of a listed name, as the API opens them. */
const newCase = async (as = org, extra: object = {}): Promise<string> =>
  (await api(as, 'POST', '/prescreen', { subject: 'Karim Yusuf Abu-Ali', ...extra })).case_id;
const caseRow = async (id: string) =>
  (
    await harness.database.owner<{ status: string; pending_decision: unknown; updated_at: Date }>(
      'SELECT status, pending_decision, updated_at FROM cases WHERE id = $1',
      [id],
    )
  )[0];

before(async () => {
  harness = await buildTestApp();
  org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
  stranger = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
  await loadTestLists(harness);
  adjudicator = await signedInUser(harness, org.organizationId, 'first.reviewer@example.com', 'adjudicator');
  second = await signedInUser(harness, org.organizationId, 'second.reviewer@example.com', 'adjudicator');
  viewer = await signedInUser(harness, org.organizationId, 'watcher@example.com', 'viewer');
});
after(() => harness.close());

describe('the queue', () => {
  test('escapes what was screened: a name cannot become markup', async () => {
    const id = await newCase(org, { company: '<script>alert(1)</script> "Trading" & Co' });
    for (const url of [`/console/cases/${id}`, '/console/queue']) {
      const body = (await adjudicator.get(url)).body;
      assert.ok(!body.includes('<script>alert'), url);
      assert.ok(body.includes('&lt;script&gt;alert(1)&lt;/script&gt; &quot;Trading&quot; &amp; Co'), url);
    }
  });

  test('lists open cases most urgent first, marks the overdue in red and in words, and filters', async () => {
    const overdue = await newCase(org, { company: 'Overdue Imports' });
    await harness.database.owner("UPDATE cases SET sla_due_at = now() - interval '2 hours' WHERE id = $1", [overdue]);
    const page = await adjudicator.get('/console/queue');
    assert.equal(page.statusCode, 200);
    const row = new RegExp(`<tr class="overdue">[^]*?/console/cases/${overdue}[^]*?</tr>`).exec(page.body)?.[0];
    assert.ok(row, 'the overdue case has its own row, marked overdue');
    assert.match(pageText(row), /Overdue since/);
    assert.match(pageText(row), /ABU-'ALI, Karim Yusuf OFAC_SDN/);

    const onlyOverdue = await adjudicator.get('/console/queue?overdue=true&status=&list=OFAC_SDN');
    const linked = [...onlyOverdue.body.matchAll(/href="\/console\/cases\/(case_[0-9a-z]+)"/g)].map((m) => m[1]);
    assert.deepEqual(linked, [overdue]);
    assert.match(onlyOverdue.body, /<option value="true" selected>/, 'the form keeps its filters');
  });

  test('pages through the queue with stable cursors', async () => {
    for (let i = 0; i < 26; i++) await newCase(org, { reference: `paging-${i}` });
    const first = await adjudicator.get('/console/queue?source=prescreen');
    const next = /href="([^"]*cursor=[^"]*)" rel="next"/.exec(first.body)?.[1]?.replace(/&amp;/g, '&');
    assert.ok(next, 'a next page');
    const firstIds = [...first.body.matchAll(/\/console\/cases\/(case_\w+)/g)].map((m) => m[1]);
    const secondIds = [...(await adjudicator.get(next)).body.matchAll(/\/console\/cases\/(case_\w+)/g)].map((m) => m[1]);
    assert.equal(firstIds.length, 25);
    assert.ok(secondIds.length >= 2);
    assert.deepEqual(
      firstIds.filter((id) => secondIds.includes(id)),
      [],
      'no case on two pages',
    );
  });
});

describe('a case', () => {
  test('shows each match explained beside its list entry, the country flags, the history and the evidence PDF', async () => {
    const id = await newCase(org, { country: 'IR', date_of_birth: '1961-02-12' });
    const page = await adjudicator.get(`/console/cases/${id}`);
    assert.equal(page.statusCode, 200);
    const text = pageText(page.body);
    assert.match(text, /Case: Karim Yusuf Abu-Ali/);
    const match = /<div class="side-by-side">[^]*?<\/section>/.exec(page.body)?.[0] ?? '';
    assert.match(pageText(match), /Why it matched .*Subject's word Listed word/);
    assert.match(pageText(match), /date of birth corroborates/);
    assert.match(pageText(match), /The list entry .*Entry id 10001 .*Dates of birth 1961-02-12/);
    assert.match(text, /Country flags \(3\) .*IR OFAC_COMPREHENSIVE prohibited Comprehensive U\.S\. embargo on Iran/);
    assert.match(text, /History .*Opened/);
    const pdf = await adjudicator.get(`/console/cases/${id}/evidence`);
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-');
    const downloads = await harness.database.owner(
      "SELECT actor_id FROM audit_events WHERE action = 'screening.evidence_downloaded' AND organization_id = $1",
      [org.organizationId],
    );
    assert.deepEqual(downloads, [{ actor_id: 'first.reviewer@example.com' }]);
  });

  test('a match an identifier found says so, and the identifiers screened are shown', async () => {
    await loadTestLists(harness, [
      sdnList([...SDN_ROWS, `30003,"NASSER, Omid","individual","SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"Passport P90817263 (Iran)."`]),
      uvlList(),
    ]);
    try {
      const id = await newCase(org, { subject: 'Jonas Weber', identifiers: [{ type: 'passport', value: 'P 9081 7263', country: 'IR' }] });
      const text = pageText((await adjudicator.get(`/console/cases/${id}`)).body);
      assert.match(text, /Identifiers passport P 9081 7263 \(IR\)/);
      assert.match(text, /Found by identifier: passport P90817263 \(IR\) is on the entry \(Passport P90817263 \(IR\)\); the names alone are no match\./);
    } finally {
      await loadTestLists(harness);
    }
  });
});

describe('a case held for a country rule', () => {
  test('with no name match, it says so and shows the rule first; clearing it lets the waiting visitor in', async () => {
    const visit = await api(org, 'POST', '/checkin', { visitor: { name: 'Reza Ahmadi', citizenship: 'IR' }, site: 'HQ' });
    const page = await adjudicator.get(`/console/cases/${visit.case_id}`);
    assert.equal(page.statusCode, 200);
    const text = pageText(page.body);
    assert.match(text, /Score no name match/);
    const hold = pageText(/<section class="hold"[^]*?<\/section>/.exec(page.body)?.[0] ?? '');
    assert.match(hold, /Held for a country rule No name match: the subject is held for the country rule below\./);
    assert.match(
      hold,
      /prohibited OFAC_COMPREHENSIVE \(IR\) — nationality IR ?: a prohibited country or region holds by default \( ?country_holds\.prohibited_regimes ?\)/,
    );
    assert.ok(text.indexOf('Held for a country rule') < text.indexOf('Decision'), 'the reason comes before the decision');
    assert.match(text, /Matches \(0\) No list entry scored at or above its threshold\./);
    assert.match(text, /Visitors on this case Reza Ahmadi at HQ: pending review/);

    const done = await adjudicator.post(`/console/cases/${visit.case_id}/disposition`, { disposition: 'CLEARED', reason: 'Export licence covers this visit.' });
    assert.equal(done.statusCode, 303);
    const after = (await harness.app.inject({ url: `/api/v1/sessions/${visit.id}`, headers: org.headers })).json();
    assert.deepEqual([after.status, after.on_site], ['checked_in', true]);
  });
});

describe('deciding', () => {
  test('an adjudicator clears a case: applied, in the history, audited as that person', async () => {
    // Clearing suppresses this subject's match from now on, so the other tests screen someone else.
    const id = await newCase(org, { subject: 'Dmitri Sergeyevich Volkov' });
    await adjudicator.get(`/console/cases/${id}`);
    const blank = await adjudicator.post(`/console/cases/${id}/disposition`, { disposition: 'CLEARED', reason: '   ' });
    assert.equal(blank.statusCode, 400);
    assert.match(pageText(blank.body), /Give a reason/);
    assert.equal((await caseRow(id))?.status, 'OPEN');

    const done = await adjudicator.post(`/console/cases/${id}/disposition`, { disposition: 'CLEARED', reason: 'Born 1990 in Beirut; passport checked.' });
    assert.equal(done.statusCode, 303);
    assert.equal(done.headers.location, `/console/cases/${id}?done=applied`);
    const page = pageText((await adjudicator.get(done.headers.location as string)).body);
    assert.match(page, /Your decision is applied\./);
    assert.match(page, /This case is closed \(CLEARED\)/);
    assert.match(page, /Decided: CLEARED OPEN → CLEARED Born 1990 in Beirut/);
    const [audit] = await harness.database.owner<{ actor_type: string; actor_id: string; actor_role: string }>(
      "SELECT actor_type, actor_id, actor_role FROM audit_events WHERE action = 'case.disposition_applied' AND target_id = $1",
      [id],
    );
    assert.deepEqual(audit, { actor_type: 'user', actor_id: 'first.reviewer@example.com', actor_role: 'adjudicator' });
  });

  test('four-eyes: the first DENIED waits, shown pending to a second reviewer, who confirms it; the same person cannot', async () => {
    await api(org, 'PUT', '/adjudication/rules', { four_eyes: { denied: true } });
    const id = await newCase();
    await adjudicator.get(`/console/cases/${id}`);
    const proposed = await adjudicator.post(`/console/cases/${id}/disposition`, { disposition: 'DENIED', reason: 'Same name and date of birth.' });
    assert.equal(proposed.headers.location, `/console/cases/${id}?done=pending`);
    const mine = pageText((await adjudicator.get(proposed.headers.location as string)).body);
    assert.match(mine, /DENIED proposed by you .*Another person must confirm it\./);
    const again = await adjudicator.post(`/console/cases/${id}/disposition`, { disposition: 'DENIED', reason: 'Me again.' });
    assert.equal(again.statusCode, 409);
    assert.match(pageText(again.body), /waiting for a second person to confirm it .*you proposed it/);

    const theirs = await second.get(`/console/cases/${id}`);
    assert.match(pageText(theirs.body), /pending DENIED proposed by first\.reviewer@example\.com .*To confirm it, choose DENIED/);
    assert.match(theirs.body, /value="DENIED" required checked>/, 'the proposal is preselected for the second reviewer');
    assert.equal((await caseRow(id))?.status, 'OPEN');
    const confirmed = await second.post(`/console/cases/${id}/disposition`, { disposition: 'DENIED', reason: 'Confirmed against the passport copy.' });
    assert.equal(confirmed.headers.location, `/console/cases/${id}?done=applied`);
    assert.equal((await caseRow(id))?.status, 'DENIED');
    await api(org, 'PUT', '/adjudication/rules', {});
  });

  test('a viewer sees the case but is offered no form, and a decision sent anyway is refused', async () => {
    const id = await newCase();
    const page = await viewer.get(`/console/cases/${id}`);
    assert.equal(page.statusCode, 200);
    assert.match(pageText(page.body), /You have the viewer role: you can look at cases but not decide them\./);
    assert.ok(!page.body.includes('name="disposition"'));
    const before = await caseRow(id);
    const refused = await viewer.post(`/console/cases/${id}/disposition`, { disposition: 'CLEARED', reason: 'Trying anyway.' });
    assert.equal(refused.statusCode, 403);
    assert.match(
      pageText(refused.body),
      /needs a person with the admin role, a person with the adjudicator role, an admin API key or a standard API key; this request comes from a person with the viewer role/,
    );
    assert.deepEqual(await caseRow(id), before);
  });

  test("a form without this browser's CSRF token is refused and changes nothing", async () => {
    const id = await newCase();
    await adjudicator.get(`/console/cases/${id}`);
    const before = await caseRow(id);
    const missing = await adjudicator.post(`/console/cases/${id}/disposition`, { _csrf: null, disposition: 'CLEARED', reason: 'No token.' });
    assert.equal(missing.statusCode, 403);
    assert.match(pageText(missing.body), /did not come from a console page of this server/);
    await second.get(`/console/cases/${id}`);
    const borrowed = await adjudicator.post(`/console/cases/${id}/disposition`, {
      _csrf: second.csrf(),
      disposition: 'CLEARED',
      reason: "Another browser's token.",
    });
    assert.equal(borrowed.statusCode, 403);
    assert.deepEqual(await caseRow(id), before);
  });

  test("another organization's case answers 404, and is left as it was", async () => {
    const theirs = await newCase(stranger);
    const before = await caseRow(theirs);
    await adjudicator.get('/console/queue');
    for (const response of [
      await adjudicator.get(`/console/cases/${theirs}`),
      await adjudicator.get(`/console/cases/${theirs}/evidence`),
      await adjudicator.post(`/console/cases/${theirs}/disposition`, { disposition: 'CLEARED', reason: 'Not mine.' }),
    ]) {
      assert.equal(response.statusCode, 404);
      assert.match(pageText(response.body), /There is no case case_\w+ in your organization\./);
    }
    assert.deepEqual(await caseRow(theirs), before);
  });
});
