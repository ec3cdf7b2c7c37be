import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { recordAudit } from '../../src/audit/audit.ts';
import { createDatabase } from '../../src/db/database.ts';
import { openPostgresConnection } from '../../src/db/postgres-connection.ts';
import { prepareWhatItCalls, preparedCall, statementName, withPrepareHeader } from '../../src/db/prepared-statements.ts';
import type { Actor } from '../../src/db/tenant.ts';
import { recordEvent } from '../../src/events/outbox.ts';
import { createOrganization } from '../helpers/credentials.ts';
import { openTestDatabase, type TestDatabase, testBackend } from '../helpers/test-database.ts';

test('a one-row statement gets a stable name of its text; batches, statements without parameters and anything returning * stay unnamed', () => {
  const byId = 'select "record" from "screenings" where "id" = $1';
  assert.match(statementName(byId, 1) ?? '', /^gh_[0-9a-f]{24}$/);
  assert.equal(statementName(byId, 1), statementName(byId, 1));
  assert.notEqual(statementName(byId, 1), statementName(`${byId} limit $2`, 2));
  assert.equal(statementName('select count(*)::int as n from "cases" where "status" = $1', 1)?.startsWith('gh_'), true);
  assert.equal(statementName('select * from "audit_events" where "seq" > $1', 1), undefined);
  assert.equal(statementName('select "a".* from "a"', 0), undefined);
  assert.equal(statementName('insert into "t" ("a") values ($1) returning *', 1), undefined);
  assert.equal(statementName('insert into "t" ("a") values ($1), ($2)', 65), undefined);
  // Without parameters a statement goes as a simple query, which may hold several (BEGIN; SELECT set_config…).
  assert.equal(statementName('commit', 0), undefined);
  assert.equal(statementName("BEGIN; SELECT set_config(E'role', E'gatehouse_runtime', true)", 0), undefined);
});

test("a simple query's header asks its session to prepare each statement it EXECUTEs once; unknown names and queries without a header ask nothing", async () => {
  const insert = 'INSERT INTO "t" ("a") SELECT incoming."a" FROM jsonb_populate_recordset(NULL::"t", $1::jsonb) AS incoming';
  const first = preparedCall(insert, "E'[{\"a\":1}]'");
  assert.match(first.name, /^gh_x_[0-9a-f]{24}$/);
  assert.equal(first.call, `EXECUTE ${first.name}(E'[{"a":1}]')`);
  assert.equal(preparedCall(insert, "E'[]'").name, first.name, 'one name per text, whatever the value');
  const audit = preparedCall('SELECT append_audit_events($1::jsonb) AS hash', "E'[]'");

  const sent: string[] = [];
  const session = new Set<string>();
  const query = withPrepareHeader([first.name, audit.name, 'gh_x_unknown'], `${first.call}; ${audit.call}; COMMIT`);
  await prepareWhatItCalls(query, session, async (statement) => sent.push(statement));
  await prepareWhatItCalls(query, session, async (statement) => sent.push(statement));
  assert.deepEqual(sent, [`PREPARE ${first.name} AS ${insert}`, `PREPARE ${audit.name} AS SELECT append_audit_events($1::jsonb) AS hash`]);
  await prepareWhatItCalls('COMMIT', new Set(), async (statement) => sent.push(statement));
  assert.equal(withPrepareHeader([], 'COMMIT'), 'COMMIT');
  assert.equal(sent.length, 2);
});

describe('final writes', () => {
  let database: TestDatabase;
  before(async () => {
    database = await openTestDatabase();
  });
  after(() => database.close());

  const actorOf = (organizationId: string): Actor => ({ organizationId, kind: 'api_key', id: 'key_final_writes' });
  const recordOne = (organizationId: string, i: number) =>
    database.db.withTenant(actorOf(organizationId), async (trx) => {
      recordEvent(trx, organizationId, { type: 'workforce.sync_completed', data: { sync_id: `wfs_${i}` } });
    });

  test("run as statements the session prepared once, not parsed and planned again on every commit", async () => {
    const org = await createOrganization(database.owner);
    for (let i = 0; i < 8; i++) await recordOne(org, i);
    // Read in the session that ran them (a released connection is the next one handed out).
    const statements = await database.db.withTenant(actorOf(org), async (trx) => {
      recordEvent(trx, org, { type: 'workforce.sync_completed', data: { sync_id: 'wfs_last' } });
      const { rows } = await sql<{ name: string; runs: number }>`
        SELECT name, (generic_plans + custom_plans)::int AS runs FROM pg_prepared_statements WHERE statement LIKE '%INSERT INTO "event_outbox"%'`.execute(trx);
      return rows;
    });
    assert.equal(statements.length, 1, 'one prepared statement for the outbox insert');
    assert.match(statements[0]?.name ?? '', /^gh_x_/);
    assert.ok((statements[0]?.runs ?? 0) >= 8, `run by name at every commit (${statements[0]?.runs} runs)`);
    const stored = await database.owner<{ n: number }>('SELECT count(*)::int AS n FROM event_outbox WHERE organization_id = $1', [org]);
    assert.equal(stored[0]?.n, 9);
  });

  test('are sent as full text where the connection keeps no session (DATABASE_PREPARE_STATEMENTS=false)', { skip: testBackend() === 'pglite' && 'the embedded database always keeps its session' }, async () => {
    const connection = await openPostgresConnection({ url: database.url as string, poolSize: 2, prepareStatements: false });
    const unprepared = await createDatabase(connection, { statementTimeoutMs: 10_000 });
    try {
      const org = await createOrganization(database.owner);
      await unprepared.withTenant(actorOf(org), async (trx) => {
        recordEvent(trx, org, { type: 'workforce.sync_completed', data: { sync_id: "wfs_O'Brien" } });
        recordAudit(trx, { actor: { ...actorOf(org), role: null }, requestId: 'req_final_writes', sourceIp: null }, { action: 'api_key.created' });
      });
      const prepared = await unprepared.withTenant(actorOf(org), async (trx) => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_prepared_statements`.execute(trx)).rows[0]?.n);
      assert.equal(prepared, 0, 'nothing prepared in the session');
      assert.deepEqual(await database.owner('SELECT data FROM event_outbox WHERE organization_id = $1', [org]), [{ data: { sync_id: "wfs_O'Brien" } }]);
      assert.deepEqual(await database.owner('SELECT action FROM audit_events WHERE organization_id = $1', [org]), [{ action: 'api_key.created' }]);
    } finally {
      await unprepared.close();
    }
  });
});
