/**
 * The read trail on a real database: reads wait in memory, reach their organization's chain in
 * the order they were answered, survive a refused append, and are all written by close().
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type AuditContext, recordAudit } from '../../src/audit/audit.ts';
import { headSeq, readLinks } from '../../src/audit/audit-store.ts';
import { verifyChain } from '../../src/audit/audit-verifier.ts';
import { createReadTrail, type ReadTrailOptions } from '../../src/audit/read-trail.ts';
import { newId } from '../../src/ids.ts';
import { createOrganization } from '../helpers/credentials.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

let database: TestDatabase;
before(async () => {
  database = await openTestDatabase();
});
after(() => database.close());

const reader = (organizationId: string, requestId: string): AuditContext => ({
  actor: { organizationId, kind: 'user', id: 'analyst@example.com', role: 'viewer' },
  requestId,
  sourceIp: '192.0.2.7',
});
const viewed = (id: string) => ({ action: 'screening.viewed', target: { type: 'screening', id } });

const chainOf = (organizationId: string) =>
  database.db.withTenant({ organizationId, kind: 'system', id: 'test' }, async (trx) => readLinks(trx, 0, await headSeq(trx)));

/** A trail whose timer never fires during a test: only a full batch, flush() or close() append. */
function quietTrail(overrides: Partial<ReadTrailOptions> = {}) {
  const errors: unknown[] = [];
  const trail = createReadTrail(database.db.withTenant, { flushAfterMs: 600_000, maxBatch: 1_000, onError: (error) => errors.push(error), ...overrides });
  return { trail, errors };
}

describe('the read trail', () => {
  test('keeps reads in memory until closed, then appends every one, in order, after the writes before them', async () => {
    const org = await createOrganization(database.owner);
    const { trail, errors } = quietTrail();
    await database.db.withTenant({ organizationId: org, kind: 'system', id: 'test' }, async (trx) =>
      recordAudit(trx, reader(org, 'write-1'), { action: 'api_key.created', target: { type: 'api_key', id: 'key_1' } }),
    );
    for (let i = 0; i < 50; i++) trail.record(reader(org, `read-${i}`), viewed(`scr_${i}`));
    assert.equal(trail.pendingCount(), 50);
    assert.equal((await chainOf(org)).length, 1, 'nothing is written per read');

    await trail.close();
    const chain = await chainOf(org);
    assert.deepEqual(
      chain.map((link) => link.fields.request_id),
      ['write-1', ...Array.from({ length: 50 }, (_, i) => `read-${i}`)],
    );
    const read = chain[1]?.fields;
    assert.deepEqual(
      [read?.action, read?.actor, read?.target, read?.source_ip, read?.outcome],
      ['screening.viewed', { type: 'user', id: 'analyst@example.com', role: 'viewer' }, { type: 'screening', id: 'scr_0' }, '192.0.2.7', 'success'],
    );
    assert.equal(trail.pendingCount(), 0);
    assert.deepEqual(errors, []);
    assert.equal((await verifyChain(database.db, org)).intact, true);
  });

  test("appends a full batch at once, each organization's reads to its own chain", async () => {
    const [first, second] = [await createOrganization(database.owner), await createOrganization(database.owner)];
    const { trail } = quietTrail({ maxBatch: 10 });
    for (let i = 0; i < 10; i++) trail.record(reader(i % 2 ? first : second, `batch-${i}`), viewed(`scr_${i}`));
    assert.equal(trail.pendingCount(), 10, 'neither organization has a full batch');
    for (let i = 10; i < 20; i++) trail.record(reader(first, `batch-${i}`), viewed(`scr_${i}`));
    await trail.flush(first);
    assert.equal((await chainOf(first)).length, 15);
    assert.equal((await chainOf(second)).length, 0, 'flushing one organization leaves the others pending');
    await trail.close();
    assert.deepEqual(
      (await chainOf(second)).map((link) => link.fields.request_id),
      ['batch-0', 'batch-2', 'batch-4', 'batch-6', 'batch-8'],
    );
  });

  test('a batch the database refuses is kept, reported, and appended once it can be', async () => {
    // An organization that does not exist yet: the chain's foreign key refuses its events.
    const org = newId('org');
    const { trail, errors } = quietTrail();
    trail.record(reader(org, 'refused-1'), viewed('scr_1'));
    await trail.flush();
    assert.equal(errors.length, 1);
    assert.equal(trail.pendingCount(), 1, 'the read is still held');
    trail.record(reader(org, 'refused-2'), viewed('scr_2'));

    await database.owner("INSERT INTO organizations (id, name, tier) VALUES ($1, 'Later', 'enterprise')", [org]);
    await trail.close();
    assert.deepEqual(
      (await chainOf(org)).map((link) => link.fields.request_id),
      ['refused-1', 'refused-2'],
      'in the order they were answered',
    );
    assert.equal(errors.length, 1);
  });
});
