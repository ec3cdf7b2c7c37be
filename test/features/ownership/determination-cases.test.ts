/**
 * Cases opened by stored ownership determinations, per the rules' `ownership.open_case_on`: a
 * blocked determination kept on record opens a critical case about it (no screening, no matches),
 * named by the determination, the answer, the queue and the `case.opened` event; a clear one, or one
 * not stored, opens none; rules that name no status open none, and an escalation rule on its list
 * opens it ESCALATED. A reviewer decides it without matches, in the API and in the console, where
 * the case shows its determination and downloads the determination's evidence. Another
 * organization's case answers 404.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FAQ_401_EXAMPLE_3 } from '../../../src/features/ownership/request-examples.ts';
import { type ConsoleClient, pageText, signedInUser } from '../../helpers/console-client.ts';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';

/** FAQ 401 Example 3: T is blocked through A, which the SDN-listed X owns 50% of. */
const blocked = { ...FAQ_401_EXAMPLE_3, screen_names: false, store: true };
/** The same graph with X's designation gone: nothing reaches T. */
const clear = { ...blocked, entities: blocked.entities.map((e) => ({ ...e, designations: [] })) };

describe('cases about ownership determinations', () => {
  let harness: TestApp;
  let org: TestTenant;
  let other: TestTenant;
  let reviewer: ConsoleClient;
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, tenant = org) =>
    harness.app.inject({ method, url: `/api/v1${url}`, headers: tenant.headers, ...(payload && { payload }) });
  const ok = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, tenant = org) => {
    const response = await call(method, url, payload, tenant);
    assert.ok(response.statusCode < 300, `${method} ${url}: ${response.body}`);
    return response.json();
  };
  const setRules = (ownership: object, escalation?: object) => ok('PUT', '/adjudication/rules', { ownership, ...(escalation && { escalation }) });

  before(async () => {
    harness = await buildTestApp();
    org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    other = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    reviewer = await signedInUser(harness, org.organizationId, 'ownership.reviewer@example.com', 'adjudicator');
  });
  after(() => harness.close());

  test('a blocked determination kept on record opens a critical case about it, named everywhere', async () => {
    const answer = await ok('POST', '/ownership/check', blocked);
    assert.match(answer.case_id, /^case_/);
    const stored = await ok('GET', `/ownership/checks/${answer.id}`);
    assert.equal(stored.case_id, answer.case_id);

    const opened = await ok('GET', `/adjudication/${answer.case_id}`);
    assert.deepEqual(
      [opened.source, opened.screening_id, opened.ownership_check_id, opened.status, opened.priority, opened.lists, opened.score],
      ['ownership', null, answer.id, 'OPEN', 'critical', ['OFAC_SDN'], 1],
    );
    assert.equal(opened.screening, null);
    assert.deepEqual([opened.determination.id, opened.determination.record_sha256_verified], [answer.id, true]);
    assert.ok(opened.priority_reasons.includes('OFAC 50 Percent Rule: blocked; basis: ownership'), opened.priority_reasons.join(' | '));

    const queue = await ok('GET', '/adjudication/queue?source=ownership');
    const row = queue.data.find((c: { id: string }) => c.id === answer.case_id);
    assert.deepEqual(row.subject, { company: 'Target Trading LLC', target_id: 'T', ownership_status: 'blocked' });
    const [event] = await harness.database.owner<{ data: object }>("SELECT data FROM event_outbox WHERE type = 'case.opened' AND data->>'case_id' = $1", [
      answer.case_id,
    ]);
    assert.deepEqual(event?.data, {
      case_id: answer.case_id,
      screening_id: null,
      ownership_check_id: answer.id,
      source: 'ownership',
      status: 'OPEN',
      priority: 'critical',
    });
    const [audit] = await harness.database.owner<{ details: { case_id: string } }>(
      "SELECT details FROM audit_events WHERE action = 'ownership.checked' AND target_id = $1",
      [answer.id],
    );
    assert.equal(audit?.details.case_id, answer.case_id);
  });

  test('a clear determination, or one not kept on record, opens no case', async () => {
    assert.equal((await ok('POST', '/ownership/check', clear)).case_id, null);
    assert.equal((await ok('POST', '/ownership/check', { ...blocked, store: false })).case_id, null);
  });

  test('the rules decide: no status named opens none; an escalation rule on the list opens it ESCALATED', async () => {
    await setRules({ open_case_on: [] });
    const none = await ok('POST', '/ownership/check', blocked);
    assert.deepEqual([none.stored, none.case_id], [true, null]);

    await setRules({ open_case_on: ['blocked'] }, { lists: ['OFAC_SDN'] });
    const escalated = await ok('GET', `/adjudication/${(await ok('POST', '/ownership/check', blocked)).case_id}`);
    assert.deepEqual([escalated.status, escalated.priority], ['ESCALATED', 'critical']);
    assert.ok(escalated.priority_reasons.includes('escalation rule: a match on OFAC_SDN'), escalated.priority_reasons.join(' | '));
    await setRules({ open_case_on: ['blocked', 'restricted', 'indeterminate'] }, { lists: [] });
  });

  test('a reviewer decides it without matches; naming one is refused and changes nothing', async () => {
    const { case_id: caseId } = await ok('POST', '/ownership/check', blocked);
    const refused = await call('POST', `/adjudication/${caseId}/disposition`, {
      disposition: 'CLEARED',
      reason: 'Licensed.',
      matches: [{ match_id: 'mat_00000000000000000000000000', decision: 'false_positive' }],
    });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.equal(refused.json().errors[0].pointer, '/matches/0/match_id');
    assert.equal((await ok('GET', `/adjudication/${caseId}`)).status, 'OPEN');

    const decided = await ok('POST', `/adjudication/${caseId}/disposition`, { disposition: 'CLEARED', reason: 'OFAC specific licence 2026-123 covers it.' });
    assert.equal(decided.status, 'CLEARED');
    const [{ n }] = (await harness.database.owner<{ n: number }>('SELECT count(*)::int AS n FROM suppressions WHERE case_id = $1', [caseId])) as [
      { n: number },
    ];
    assert.equal(n, 0, 'a determination has no name match to suppress');
  });

  test('the console shows the determination on its case and downloads its evidence', async () => {
    const answer = await ok('POST', '/ownership/check', blocked);
    const page = await reviewer.get(`/console/cases/${answer.case_id}`);
    assert.equal(page.statusCode, 200);
    const text = pageText(page.body);
    for (const words of ['Ownership determination', 'Target Trading LLC', 'OFAC 50 Percent Rule', 'blocked', answer.id, '(verified)'])
      assert.ok(text.includes(words), `the page says ${words}`);
    assert.ok(page.body.includes(`href="/console/ownership/${answer.id}"`), 'it links to the drawn graph');

    const pdf = await reviewer.get(`/console/cases/${answer.case_id}/evidence`);
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    assert.match(String(pdf.headers['content-disposition']), new RegExp(`gatehouse-evidence-${answer.id}\\.pdf`));
  });

  test("another organization's case about a determination answers 404", async () => {
    const { case_id: caseId } = await ok('POST', '/ownership/check', blocked);
    assert.equal((await call('GET', `/adjudication/${caseId}`, undefined, other)).statusCode, 404);
    const refused = await call('POST', `/adjudication/${caseId}/disposition`, { disposition: 'DENIED', reason: 'No.' }, other);
    assert.equal(refused.statusCode, 404);
    assert.equal((await ok('GET', `/adjudication/${caseId}`)).status, 'OPEN');
  });
});
