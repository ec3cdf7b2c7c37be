/**
 * A real app with the test lists loaded and an Enterprise organization at its desk, shared by the
 * check-in test files: the calls a front desk makes, and what each session emitted.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { createTenant, personHeaders, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';
import { loadTestLists } from '../../helpers/test-lists.ts';

/** Registers the file's before and after hooks; the desk's fields are there once `before` has run. */
export function openDesk() {
  let harness: TestApp;
  let org: TestTenant;
  let secondReviewer: { authorization: string };
  before(async () => {
    harness = await buildTestApp({ env: { CHECKIN_PRESCREEN_FRESHNESS_HOURS: '24' } });
    org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    secondReviewer = await personHeaders(harness.database.db, org.organizationId, 'adjudicator', 'second.reviewer@example.com');
    await loadTestLists(harness);
  });
  after(() => harness.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers = org.headers) =>
    harness.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload && { payload }) });
  return {
    get harness() {
      return harness;
    },
    get org() {
      return org;
    },
    /** A second person, for four eyes. */
    get secondReviewer() {
      return secondReviewer;
    },
    call,
    /** Checks a visitor in at HQ, asserting 201, and answers the session. */
    async checkIn(visitor: object, extra: object = {}, as = org) {
      const response = await call('POST', '/checkin', { visitor, site: 'HQ', ...extra }, as.headers);
      assert.equal(response.statusCode, 201, response.body);
      return response.json();
    },
    update: (id: string, payload: object, headers = org.headers) => call('POST', `/sessions/${id}/update`, payload, headers),
    session: async (id: string) => (await call('GET', `/sessions/${id}`)).json(),
    /** The outbox events of a session, oldest first. */
    eventsOf: async (sessionId: string) =>
      (await harness.database.owner<{ type: string }>("SELECT type FROM event_outbox WHERE data->>'session_id' = $1 ORDER BY id", [sessionId])).map(
        (e) => e.type,
      ),
  };
}
