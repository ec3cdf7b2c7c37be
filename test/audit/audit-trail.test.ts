import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { type AuditContext, recordAudit } from '../../src/audit/audit.ts';
import { verifyChain } from '../../src/audit/audit-verifier.ts';
import { createOrganization } from '../helpers/credentials.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

let database: TestDatabase;
before(async () => {
  database = await openTestDatabase();
});
after(() => database.close());

const contextFor = (organizationId: string): AuditContext => ({
  actor: { organizationId, kind: 'api_key', id: 'key_test', role: null },
  requestId: 'req-audit-test',
  sourceIp: '127.0.0.1',
});

const record = (organizationId: string, action: string, details: Record<string, unknown> = {}) =>
  database.db.withTenant(contextFor(organizationId).actor, (trx) =>
    recordAudit(trx, contextFor(organizationId), { action, target: { type: 'api_key', id: 'key_x' }, details }),
  );

/** Alters the trail as an owner who turns the append-only trigger off first: the attack verify must catch. */
async function tamperAsOwner(statement: string, params: unknown[]) {
  await database.owner('ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_update_or_delete');
  await database.owner(statement, params);
  await database.owner('ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_update_or_delete');
}

describe('the audit chain', () => {
  test('numbers events per organization and links each to the one before', async () => {
    const org = await createOrganization(database.owner);
    const first = await record(org, 'api_key.created', { name: 'ci' });
    const second = await record(org, 'api_key.disabled');
    assert.equal(first.seq, 1);
    assert.equal(first.prev_hash, '0'.repeat(64));
    assert.equal(second.seq, 2);
    assert.equal(second.prev_hash, first.hash);
    assert.deepEqual(await verifyChain(database.db, org), { organization_id: org, events: 2, intact: true });
  });

  test('concurrent writers never fork the chain', async () => {
    const org = await createOrganization(database.owner);
    const records = await Promise.all(Array.from({ length: 25 }, (_, i) => record(org, 'api_key.created', { i })));
    assert.deepEqual(records.map((r) => r.seq).sort((a, b) => a - b), Array.from({ length: 25 }, (_, i) => i + 1));
    assert.equal((await verifyChain(database.db, org)).intact, true);
  });

  test('an event rolled back with its change leaves no trace and no gap', async () => {
    const org = await createOrganization(database.owner);
    await record(org, 'api_key.created');
    await assert.rejects(
      database.db.withTenant(contextFor(org).actor, async (trx) => {
        await recordAudit(trx, contextFor(org), { action: 'api_key.revoked' });
        throw new Error('the change failed');
      }),
    );
    const next = await record(org, 'api_key.enabled');
    assert.equal(next.seq, 2);
    assert.equal((await verifyChain(database.db, org)).intact, true);
  });

  test('is append-only for every role, the owner included', async () => {
    const org = await createOrganization(database.owner);
    await record(org, 'api_key.created');
    for (const statement of ['UPDATE audit_events SET action = \'x.y\'', 'DELETE FROM audit_events', 'TRUNCATE audit_events']) {
      await assert.rejects(database.owner(statement), /append-only/, `owner: ${statement}`);
      await assert.rejects(
        database.db.withTenant(contextFor(org).actor, (trx) => sql.raw(statement).execute(trx)),
        (error: { code?: string }) => error.code === '42501',
        `runtime: ${statement}`,
      );
    }
  });

  test('verify finds the first altered event, even when the owner bypasses the trigger', async () => {
    const org = await createOrganization(database.owner);
    for (const action of ['api_key.created', 'api_key.disabled', 'api_key.enabled', 'api_key.revoked']) await record(org, action);
    const other = await createOrganization(database.owner);
    await record(other, 'api_key.created');

    await tamperAsOwner(`UPDATE audit_events SET details = '{"name":"forged"}' WHERE organization_id = $1 AND seq = 3`, [org]);

    const result = await verifyChain(database.db, org);
    assert.equal(result.intact, false);
    assert.equal(result.first_break?.seq, 3);
    assert.match(String(result.first_break?.reason), /content does not match/);
    assert.equal((await verifyChain(database.db, other)).intact, true, 'other organizations are unaffected');
  });

  test('verify finds a deleted event', async () => {
    const org = await createOrganization(database.owner);
    for (const action of ['api_key.created', 'api_key.disabled', 'api_key.enabled']) await record(org, action);
    await tamperAsOwner('DELETE FROM audit_events WHERE organization_id = $1 AND seq = 2', [org]);
    assert.deepEqual((await verifyChain(database.db, org)).first_break, { seq: 3, reason: 'expected event 2, found 3' });
  });

  test('verify finds events cut from the end of the chain', async () => {
    const org = await createOrganization(database.owner);
    for (const action of ['api_key.created', 'api_key.disabled', 'api_key.enabled']) await record(org, action);
    await tamperAsOwner('DELETE FROM audit_events WHERE organization_id = $1 AND seq = 3', [org]);
    assert.deepEqual((await verifyChain(database.db, org)).first_break, { seq: 3, reason: "missing: the chain's head is at 3" });
  });
});
