/**
 * Audit action names say what was done, as a verb: enabling a key is `api_key.enabled`, a decision
 * waiting for its second reviewer `case.decision_proposed`. Events stored under an earlier name stay
 * as they were, and filtering the trail by the current name (the export, the console's log) finds them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { recordAudit } from '../../src/audit/audit.ts';
import { latestEvents } from '../../src/audit/audit-store.ts';
import { verifyChain } from '../../src/audit/audit-verifier.ts';
import { createTenant, personHeaders, type TestTenant } from '../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { loadTestLists } from '../helpers/test-lists.ts';

let harness: TestApp;
let admin: TestTenant;
before(async () => {
  harness = await buildTestApp();
  admin = await createTenant(harness.database.owner, { admin: true, tier: 'enterprise' });
  await loadTestLists(harness);
});
after(() => harness.close());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers: Record<string, string> = admin.headers) =>
  harness.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload && { payload }) });
const actionsOn = async (targetId: string) =>
  (await harness.database.owner<{ action: string }>('SELECT action FROM audit_events WHERE target_id = $1 ORDER BY seq', [targetId])).map((e) => e.action);

describe('audit action names', () => {
  test("a key's changes are audited as what was done to it: created, disabled, enabled, revoked", async () => {
    const { id } = (await call('POST', '/api-keys', { name: 'audited by verb' })).json();
    for (const change of ['disable', 'enable', 'revoke']) assert.equal((await call('POST', `/api-keys/${id}/${change}`)).statusCode, 200, change);
    assert.deepEqual(await actionsOn(id), ['api_key.created', 'api_key.disabled', 'api_key.enabled', 'api_key.revoked']);
  });

  test('a decision waiting for a second reviewer is audited as case.decision_proposed', async () => {
    assert.equal((await call('PUT', '/adjudication/rules', { four_eyes: { denied: true } })).statusCode, 200);
    try {
      const adjudicator = await personHeaders(harness.database.db, admin.organizationId, 'adjudicator', 'first.reviewer@example.com');
      const { case_id: caseId } = (await call('POST', '/prescreen', { subject: 'Karim Yusuf Abu-Ali' })).json();
      const proposed = await call(
        'POST',
        `/adjudication/${caseId}/disposition`,
        { disposition: 'DENIED', reason: 'Matches the listed date of birth.' },
        adjudicator,
      );
      assert.equal(proposed.statusCode, 202, proposed.body);
      assert.deepEqual(await actionsOn(caseId), ['case.decision_proposed']);
    } finally {
      await call('PUT', '/adjudication/rules', {});
    }
  });

  test('an event stored under a former name stays as stored, and the export and the log find it by the current name', async () => {
    const tenant = await createTenant(harness.database.owner, { admin: true, tier: 'enterprise' });
    const context = {
      actor: { organizationId: tenant.organizationId, kind: 'system' as const, id: 'cli', role: null },
      requestId: 'before-the-rename',
      sourceIp: null,
    };
    // An enabling as the service recorded it before the rename.
    await harness.database.db.withTenant(context.actor, async (trx) =>
      recordAudit(trx, context, { action: 'api_key.active', target: { type: 'api_key', id: tenant.keyId }, details: { from: 'disabled' } }),
    );
    const { id } = (await call('POST', '/api-keys', { name: 'enabled after the rename' }, tenant.headers)).json();
    await call('POST', `/api-keys/${id}/disable`, undefined, tenant.headers);
    await call('POST', `/api-keys/${id}/enable`, undefined, tenant.headers);

    const exported = (await harness.app.inject({ url: '/api/v1/audit/export?action=api_key.enabled', headers: tenant.headers })).body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      exported.map((e: { action: string }) => e.action),
      ['api_key.active', 'api_key.enabled'],
      'both, each as stored',
    );
    const logged = await harness.database.db.withTenant(context.actor, (trx) => latestEvents(trx, { action: 'api_key.enabled' }, undefined, 10));
    assert.deepEqual(
      logged.map((link) => link.fields.action),
      ['api_key.enabled', 'api_key.active'],
      "the console's log, newest first",
    );
    assert.equal((await verifyChain(harness.database.db, tenant.organizationId)).intact, true, 'history is not rewritten');
  });
});
