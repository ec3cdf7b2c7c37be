import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { type AuditContext, appendAuditNow, recordAudit, recordAudits } from '../../src/audit/audit.ts';
import type { StoredLink } from '../../src/audit/audit-chain.ts';
import { headSeq, readLinks } from '../../src/audit/audit-store.ts';
import { verifyChain } from '../../src/audit/audit-verifier.ts';
import { type OutboxEvent, recordEvent } from '../../src/events/outbox.ts';
import { tamperWithAuditTrail } from '../helpers/audit-tampering.ts';
import { createOrganization } from '../helpers/credentials.ts';
import { openTestDatabase, type TestDatabase, testBackend } from '../helpers/test-database.ts';

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

/** Records one event in a transaction of its own and answers it as the chain stored it. */
async function record(organizationId: string, action: string, details: Record<string, unknown> = {}) {
  const actor = contextFor(organizationId).actor;
  await database.db.withTenant(actor, async (trx) =>
    recordAudit(trx, contextFor(organizationId), { action, target: { type: 'api_key', id: 'key_x' }, details }),
  );
  return (await chainOf(organizationId)).at(-1) as StoredLink;
}

const chainOf = (organizationId: string) => database.db.withTenant(contextFor(organizationId).actor, async (trx) => readLinks(trx, 0, await headSeq(trx)));
const hex = (bytes: Buffer) => bytes.toString('hex');

/** Alters the trail as an owner who turns the append-only trigger off first: the attack verify must catch. */
const tamperAsOwner = (statement: string) => tamperWithAuditTrail(database.owner, statement);

describe('the audit chain', () => {
  test('numbers events per organization and links each to the one before', async () => {
    const org = await createOrganization(database.owner);
    const first = await record(org, 'api_key.created', { name: 'ci' });
    const second = await record(org, 'api_key.disabled');
    assert.equal(first.seq, 1);
    assert.equal(hex(first.prev_hash), '0'.repeat(64));
    assert.equal(second.seq, 2);
    assert.equal(hex(second.prev_hash), hex(first.hash));
    assert.deepEqual(await verifyChain(database.db, org), { organization_id: org, events: 2, intact: true });
  });

  test('concurrent writers never fork the chain', async () => {
    const org = await createOrganization(database.owner);
    await Promise.all(Array.from({ length: 25 }, (_, i) => record(org, 'api_key.created', { i })));
    const chain = await chainOf(org);
    assert.deepEqual(
      chain.map((link) => link.seq),
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
    assert.equal(new Set(chain.map((link) => link.fields.details.i)).size, 25, 'each writer has its one event in the chain');
    assert.equal((await verifyChain(database.db, org)).intact, true);
  });

  test('an event rolled back with its change leaves no trace and no gap', async () => {
    const org = await createOrganization(database.owner);
    await record(org, 'api_key.created');
    await assert.rejects(
      database.db.withTenant(contextFor(org).actor, async (trx) => {
        recordAudit(trx, contextFor(org), { action: 'api_key.revoked' });
        throw new Error('the change failed');
      }),
    );
    const next = await record(org, 'api_key.enabled');
    assert.equal(next.seq, 2);
    assert.equal((await verifyChain(database.db, org)).intact, true);
  });

  test('an event the database refuses at commit rolls the whole transaction back and leaves the connection clean', async () => {
    const org = await createOrganization(database.owner);
    await assert.rejects(
      database.db.withTenant(contextFor(org).actor, async (trx) => {
        await recordEvent(trx, org, { type: 'workforce.sync_completed', data: { sync_id: 'wfs_rolled_back' } });
        recordAudit(trx, contextFor(org), { action: 'Not A Valid Action' });
      }),
      /violates check constraint/,
    );
    assert.deepEqual(await database.owner('SELECT id FROM event_outbox WHERE organization_id = $1', [org]), [], 'the change went with its refused event');
    for (let i = 0; i < 3; i++) await record(org, 'api_key.created', { i });
    assert.deepEqual(
      (await chainOf(org)).map((link) => link.seq),
      [1, 2, 3],
    );
  });

  test("the append follows the transaction's other final writes, so the chain is locked for the append and commit alone", async () => {
    // Both final writes are refused; the one that runs first names its constraint in the error.
    const org = await createOrganization(database.owner);
    await assert.rejects(
      database.db.withTenant(contextFor(org).actor, async (trx) => {
        recordAudit(trx, contextFor(org), { action: 'Not A Valid Action' });
        recordEvent(trx, org, { type: 'Not A Valid Type' as OutboxEvent['type'], data: {} });
      }),
      /event_outbox_type_check/,
    );
    assert.deepEqual(await chainOf(org), []);
  });

  test("a transaction's events are appended in the order recorded, with text that needs quoting kept exactly", async () => {
    const org = await createOrganization(database.owner);
    const awkward = { name: "O'Brien \\ \"quoted\" 名前 علي \u2028 $1 E'x'", nested: { list: [1, null, 'two'] } };
    await database.db.withTenant(contextFor(org).actor, async (trx) => {
      recordAudit(trx, contextFor(org), { action: 'api_key.created', details: awkward });
      recordAudits(trx, contextFor(org), [{ action: 'api_key.disabled' }, { action: 'api_key.enabled' }]);
    });
    const chain = await chainOf(org);
    assert.deepEqual(
      chain.map((link) => link.fields.action),
      ['api_key.created', 'api_key.disabled', 'api_key.enabled'],
    );
    assert.deepEqual(chain[0]?.fields.details, awkward);
    assert.deepEqual(await verifyChain(database.db, org), { organization_id: org, events: 3, intact: true });
  });

  test('appendAuditNow appends what was recorded before it, then its own event, and answers its hash', async () => {
    const org = await createOrganization(database.owner);
    const hash = await database.db.withTenant(contextFor(org).actor, async (trx) => {
      recordAudit(trx, contextFor(org), { action: 'api_key.created' });
      const appended = await appendAuditNow(trx, contextFor(org), { action: 'workforce.sync_started' });
      recordAudit(trx, contextFor(org), { action: 'api_key.disabled' });
      return appended;
    });
    const chain = await chainOf(org);
    assert.deepEqual(
      chain.map((link) => link.fields.action),
      ['api_key.created', 'workforce.sync_started', 'api_key.disabled'],
    );
    assert.equal(hash, hex(chain[1]?.hash as Buffer));
    assert.equal((await verifyChain(database.db, org)).intact, true);
  });

  test("a transaction that recorded an event does not hold its organization's chain while it works", {
    skip: testBackend() === 'pglite' && 'the embedded database runs one transaction at a time',
  }, async () => {
    const org = await createOrganization(database.owner);
    let finishSlow = () => {};
    const slowMayFinish = new Promise<void>((resolve) => {
      finishSlow = resolve;
    });
    const slow = database.db.withTenant(contextFor(org).actor, async (trx) => {
      recordAudit(trx, contextFor(org), { action: 'api_key.created', details: { who: 'slow' } });
      await slowMayFinish;
    });
    // Another request of the organization records and commits while the first is still at work.
    await record(org, 'api_key.disabled', { who: 'quick' });
    finishSlow();
    await slow;
    const chain = await chainOf(org);
    assert.deepEqual(
      chain.map((link) => link.fields.details.who),
      ['quick', 'slow'],
    );
    assert.equal((await verifyChain(database.db, org)).intact, true);
  });

  test('is append-only for every role, the owner included', async () => {
    const org = await createOrganization(database.owner);
    await record(org, 'api_key.created');
    for (const statement of ["UPDATE audit_events SET action = 'x.y'", 'DELETE FROM audit_events', 'TRUNCATE audit_events']) {
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

    await tamperAsOwner(`UPDATE audit_events SET details = '{"name":"forged"}' WHERE organization_id = '${org}' AND seq = 3`);

    const result = await verifyChain(database.db, org);
    assert.equal(result.intact, false);
    assert.equal(result.first_break?.seq, 3);
    assert.match(String(result.first_break?.reason), /content does not match/);
    assert.equal((await verifyChain(database.db, other)).intact, true, 'other organizations are unaffected');
  });

  test('verify finds a deleted event', async () => {
    const org = await createOrganization(database.owner);
    for (const action of ['api_key.created', 'api_key.disabled', 'api_key.enabled']) await record(org, action);
    await tamperAsOwner(`DELETE FROM audit_events WHERE organization_id = '${org}' AND seq = 2`);
    assert.deepEqual((await verifyChain(database.db, org)).first_break, { seq: 3, reason: 'expected event 2, found 3' });
  });

  test('verify finds events cut from the end of the chain', async () => {
    const org = await createOrganization(database.owner);
    for (const action of ['api_key.created', 'api_key.disabled', 'api_key.enabled']) await record(org, action);
    await tamperAsOwner(`DELETE FROM audit_events WHERE organization_id = '${org}' AND seq = 3`);
    assert.deepEqual((await verifyChain(database.db, org)).first_break, { seq: 3, reason: "missing: the chain's head is at 3" });
  });
});
