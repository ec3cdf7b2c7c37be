/**
 * Monitoring across many organizations: every serving process polls for runs every few seconds,
 * and that poll asks the database once which organizations have a run to claim, so what it costs
 * does not grow with the number of organizations; a new list version queues every organization's
 * run at once. A run whose worker's lease ran out is found and resumed; a run is only ever
 * claimed in its own organization's transaction.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { organizationsWithClaimableRuns } from '../../../src/features/monitoring/across-organizations.ts';
import { claimableRun } from '../../../src/features/monitoring/store.ts';
import { createOrganization } from '../../helpers/credentials.ts';
import { tapStatements } from '../../helpers/statement-tap.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';
import { loadTestLists, SDN_ROWS, sdnList } from '../../helpers/test-lists.ts';

const ADDED = `40001,"ORLOVA, Svetlana Ivanovna","individual","RUSSIA-EO14024",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 1975."`;

describe('monitoring across organizations', () => {
  let harness: TestApp;
  const organizations: string[] = [];
  const addOrganizations = async (count: number) => {
    for (let i = 0; i < count; i++) organizations.push(await createOrganization(harness.database.owner));
  };
  const monitoring = () => harness.app.services.monitoring;
  /** The queries a call sends, all of them, as the drivers send them. */
  const statementsOf = async <T>(call: () => Promise<T>): Promise<{ result: T; sent: number }> => {
    const tap = tapStatements();
    try {
      return { result: await call(), sent: tap.sent.length };
    } finally {
      tap.close();
    }
  };
  const runOf = async (organizationId: string) => {
    const rows = await harness.database.owner<{ id: string; status: string }>('SELECT id, status FROM monitoring_runs WHERE organization_id = $1', [
      organizationId,
    ]);
    assert.equal(rows.length, 1, `one run in ${organizationId}`);
    return rows[0] as { id: string; status: string };
  };
  const asTenant = <T>(organizationId: string, fn: Parameters<TestApp['database']['db']['withTenant']>[1]) =>
    harness.database.db.withTenant({ organizationId, kind: 'system', id: 'test' }, fn) as Promise<T>;

  before(async () => {
    harness = await buildTestApp();
    await loadTestLists(harness);
  });
  after(() => harness.close());

  test('a poll with nothing to do sends as many statements for 30 organizations as for 3', async () => {
    await addOrganizations(3);
    const few = await statementsOf(() => monitoring().workRuns());
    await addOrganizations(27);
    const many = await statementsOf(() => monitoring().workRuns());
    assert.deepEqual([few.result, many.result], [0, 0]);
    assert.ok(few.sent > 0, 'the poll asked the database');
    assert.equal(many.sent, few.sent);
  });

  test('a new list version queues a run in every organization without a transaction for each', async () => {
    await loadTestLists(harness, [sdnList([...SDN_ROWS, ADDED])]);
    const queued = await statementsOf(() => monitoring().queueRuns());
    assert.equal(queued.result, organizations.length);
    assert.ok(queued.sent < organizations.length, `${queued.sent} statements for ${organizations.length} organizations`);
    assert.equal(await monitoring().queueRuns(), 0, 'queued once, whoever asks again');
    const [run] = await harness.database.owner(
      "SELECT status, list, changed_entries, cursor->>'source' AS source, counts->>'subjects' AS subjects FROM monitoring_runs WHERE organization_id = $1",
      [organizations[0]],
    );
    assert.deepEqual(run, { status: 'queued', list: 'OFAC_SDN', changed_entries: 1, source: null, subjects: '0' }, 'queued as one organization queues it');

    assert.deepEqual(new Set(await organizationsWithClaimableRuns(harness.database.db.withTenant, new Date())), new Set(organizations));
    assert.ok((await monitoring().workRuns()) >= organizations.length);
    for (const organizationId of organizations) assert.equal((await runOf(organizationId)).status, 'completed');
  });

  test("the organization whose run's lease ran out is found and its run resumed; a run whose lease holds is left alone", async () => {
    const [lapsed, held] = organizations as [string, string];
    await harness.database.owner(
      `UPDATE monitoring_runs SET status = 'running', finished_at = NULL, cursor = '{"source": null, "after": null}', lease_until = now() - interval '1 second' WHERE organization_id = $1`,
      [lapsed],
    );
    await harness.database.owner(
      `UPDATE monitoring_runs SET status = 'running', finished_at = NULL, lease_until = now() + interval '1 hour' WHERE organization_id = $1`,
      [held],
    );
    assert.deepEqual(await organizationsWithClaimableRuns(harness.database.db.withTenant, new Date()), [lapsed]);
    assert.ok((await monitoring().workRuns()) > 0);
    assert.equal((await runOf(lapsed)).status, 'completed');
    assert.equal((await runOf(held)).status, 'running');
  });

  test("a run is claimed in its own organization's transaction, never in another's", async () => {
    const [due, other] = organizations.slice(2) as [string, string];
    await harness.database.owner(`UPDATE monitoring_runs SET status = 'queued', finished_at = NULL, lease_until = NULL WHERE organization_id = $1`, [due]);
    const inOther = await asTenant<Awaited<ReturnType<typeof claimableRun>>>(other, (trx) => claimableRun(trx, new Date()));
    assert.equal(inOther, undefined);
    const inOwn = await asTenant<Awaited<ReturnType<typeof claimableRun>>>(due, (trx) => claimableRun(trx, new Date()));
    assert.equal(inOwn?.id, (await runOf(due)).id);
    await monitoring().workRuns();
    assert.equal((await runOf(due)).status, 'completed');
    const started = await harness.database.owner<{ organization_id: string }>(
      "SELECT organization_id FROM audit_events WHERE action = 'monitoring.run_started' AND target_id = $1",
      [(await runOf(due)).id],
    );
    assert.deepEqual(
      started.map((s) => s.organization_id),
      [due],
      'its start is in its own audit trail',
    );
  });

  test("the steps across organizations are refused inside an organization's transaction", async () => {
    const [organizationId] = organizations as [string];
    await assert.rejects(
      asTenant(organizationId, (trx) => sql`SELECT * FROM monitoring_organizations_due(now())`.execute(trx)),
      /outside any organization's transaction/,
    );
    await assert.rejects(
      asTenant(organizationId, (trx) => sql`SELECT queue_monitoring_runs(ARRAY[${organizationId}], ARRAY['mon_x'], '{}'::jsonb)`.execute(trx)),
      /outside any organization's transaction/,
    );
  });
});
