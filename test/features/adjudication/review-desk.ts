/**
 * A real app with the test lists loaded and an Enterprise organization whose admin key reviews
 * cases, shared by the case test files: the calls a reviewer makes.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { Role } from '../../../src/http/actor.ts';
import { createKey, createTenant, personHeaders, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';
import { loadTestLists } from '../../helpers/test-lists.ts';

/** Registers the file's hooks; the fields are there once `before` has run. */
export function openReviewDesk() {
  let harness: TestApp;
  let org: TestTenant; // an admin key of an Enterprise organization: reviewer A
  let reviewerB: { headers: { authorization: string } }; // another key of the same organization
  let other: TestTenant;
  before(async () => {
    harness = await buildTestApp();
    org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    reviewerB = await createKey(harness.database.owner, org.organizationId);
    other = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    await loadTestLists(harness);
  });
  after(() => harness.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers: { authorization: string }, payload?: object) =>
    harness.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload && { payload }) });
  return {
    get harness() {
      return harness;
    },
    get org() {
      return org;
    },
    get reviewerB() {
      return reviewerB;
    },
    get other() {
      return other;
    },
    call,
    /** Prescreens as `as` (the reviewer's organization), asserting 201. */
    async prescreen(payload: object, as = org) {
      const response = await call('POST', '/prescreen', as.headers, payload);
      assert.equal(response.statusCode, 201, response.body);
      return response.json();
    },
    caseOf: async (id: string, as = org) => (await call('GET', `/adjudication/${id}`, as.headers)).json(),
    dispose: (id: string, payload: object, headers = org.headers) => call('POST', `/adjudication/${id}/disposition`, headers, payload),
    async putRules(rules: object) {
      const response = await call('PUT', '/adjudication/rules', org.headers, rules);
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    },
    /** A person of the organization with this role. */
    bearer: (role: Role, subject?: string) => personHeaders(harness.database.db, org.organizationId, role, subject),
    /** The outbox events of a type whose data has `key` = `value`, oldest first. */
    outbox: (type: string, key: string, value: string) =>
      harness.database.owner<{ data: Record<string, unknown> }>(`SELECT data FROM event_outbox WHERE type = $1 AND data->>'${key}' = $2 ORDER BY id`, [
        type,
        value,
      ]),
  };
}
