import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { recordAudit } from '../../src/audit/audit.ts';
import { createDatabase } from '../../src/db/database.ts';
import { openPostgresConnection } from '../../src/db/postgres-connection.ts';
import { preparedCall, runPreparing, simpleQueryOf, statementName, withPrepareHeader } from '../../src/db/prepared-statements.ts';
import { sqlText } from '../../src/db/sql-text.ts';
import type { Actor } from '../../src/db/tenant.ts';
import { type OutboxEvent, recordEvent } from '../../src/events/outbox.ts';
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
  const insert = sqlText`INSERT INTO "t" ("a") SELECT incoming."a" FROM jsonb_populate_recordset(NULL::"t", $1::jsonb) AS incoming`;
  const first = preparedCall(insert, '[{"a":1}]');
  assert.match(first.name, /^gh_x_[0-9a-f]{24}$/);
  assert.equal(first.call.text, `EXECUTE ${first.name}(E'[{"a":1}]')`);
  assert.equal(preparedCall(insert, '[]').name, first.name, 'one name per text, whatever the value');
  const audit = preparedCall(sqlText`SELECT append_audit_events($1::jsonb) AS hash`, '[]');

  const sent: string[] = [];
  const send = async (statement: string) => sent.push(statement);
  const session = new Set<string>();
  const query = withPrepareHeader([first.name, audit.name, 'gh_x_unknown'], sqlText`${first.call}; ${audit.call}; COMMIT`).text;
  await runPreparing(query, session, send);
  await runPreparing(query, session, send);
  assert.deepEqual(sent, [`PREPARE ${first.name} AS ${insert.text}`, `PREPARE ${audit.name} AS SELECT append_audit_events($1::jsonb) AS hash`, query, query]);
  sent.length = 0;
  await runPreparing('COMMIT', new Set(), send);
  assert.equal(withPrepareHeader([], sqlText`COMMIT`).text, 'COMMIT');
  assert.deepEqual(sent, ['COMMIT']);
});

test('statements sent with COMMIT run by name, their values literal arguments, or where the session keeps nothing as their full text', () => {
  const insert = sqlText`INSERT INTO "t" ("a") SELECT incoming."a" FROM jsonb_populate_recordset(NULL::"t", $1::jsonb) AS incoming`;
  const append = sqlText`SELECT append_audit_events($1::jsonb) AS hash`;
  const statements = [
    { text: insert, json: `[{"a":"O'Brien \\ x"}]` },
    { text: append, json: '[]' },
  ];
  const [a, b] = statements.map(({ text, json }) => preparedCall(text, json).name);
  assert.equal(
    simpleQueryOf(statements, [sqlText`COMMIT`], true).text,
    `/*prepare ${a} ${b}*/ EXECUTE ${a}(E'[{"a":"O''Brien \\\\ x"}]'); EXECUTE ${b}(E'[]'); COMMIT`,
  );
  assert.equal(
    simpleQueryOf(statements, [sqlText`COMMIT`], false).text,
    `INSERT INTO "t" ("a") SELECT incoming."a" FROM jsonb_populate_recordset(NULL::"t", E'[{"a":"O''Brien \\\\ x"}]'::jsonb) AS incoming; ` +
      "SELECT append_audit_events(E'[]'::jsonb) AS hash; COMMIT",
  );
  assert.equal(simpleQueryOf([], [sqlText`COMMIT`], true).text, 'COMMIT', 'nothing held: COMMIT alone, no header');
});

test('a session whose prepared statements went missing, or that has one it did not know of, fails one query and then recovers', async () => {
  const { name, call } = preparedCall(sqlText`SELECT $1::jsonb AS value`, '1');
  const query = withPrepareHeader([name], sqlText`${call}; COMMIT`).text;
  const refusal = (code: string) => Object.assign(new Error(code), { code });
  const session = new Set([name]);
  // Something deallocated it behind the wrapper's back: the query fails, and the name is forgotten.
  await assert.rejects(
    runPreparing(query, session, async () => Promise.reject(refusal('26000'))),
    /26000/,
  );
  assert.equal(session.has(name), false);
  // The server already has it (42P05): counted as prepared, and the query runs.
  const sent: string[] = [];
  await runPreparing(query, session, async (statement) => (statement.startsWith('PREPARE') ? Promise.reject(refusal('42P05')) : sent.push(statement)));
  assert.equal(session.has(name), true);
  assert.deepEqual(sent, [query]);
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

  test("a final write refused on a session's first commit leaves its statement prepared, and the session's next commit runs it", async () => {
    // One session throughout: the embedded database has only one; on PostgreSQL a pool of one.
    const single = database.url
      ? await createDatabase(await openPostgresConnection({ url: database.url, poolSize: 1 }), { statementTimeoutMs: 10_000 })
      : database.db;
    try {
      const org = await createOrganization(database.owner);
      await assert.rejects(
        single.withTenant(actorOf(org), async (trx) => {
          recordEvent(trx, org, { type: 'Not A Valid Type' as OutboxEvent['type'], data: {} });
        }),
        /event_outbox_type_check/,
      );
      await single.withTenant(actorOf(org), async (trx) => {
        recordEvent(trx, org, { type: 'workforce.sync_completed', data: { sync_id: 'wfs_after_refusal' } });
      });
      assert.deepEqual(await database.owner('SELECT data FROM event_outbox WHERE organization_id = $1', [org]), [{ data: { sync_id: 'wfs_after_refusal' } }]);
    } finally {
      if (single !== database.db) await single.close();
    }
  });

  test('run as statements the session prepared once, not parsed and planned again on every commit', async () => {
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

  test('are sent as full text where the connection keeps no session (DATABASE_PREPARE_STATEMENTS=false)', {
    skip: testBackend() === 'pglite' && 'the embedded database always keeps its session',
  }, async () => {
    const connection = await openPostgresConnection({ url: database.url as string, poolSize: 2, prepareStatements: false });
    const unprepared = await createDatabase(connection, { statementTimeoutMs: 10_000 });
    try {
      const org = await createOrganization(database.owner);
      await unprepared.withTenant(actorOf(org), async (trx) => {
        recordEvent(trx, org, { type: 'workforce.sync_completed', data: { sync_id: "wfs_O'Brien" } });
        recordAudit(trx, { actor: { ...actorOf(org), role: null }, requestId: 'req_final_writes', sourceIp: null }, { action: 'api_key.created' });
      });
      const prepared = await unprepared.withTenant(
        actorOf(org),
        async (trx) => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_prepared_statements`.execute(trx)).rows[0]?.n,
      );
      assert.equal(prepared, 0, 'nothing prepared in the session');
      assert.deepEqual(await database.owner('SELECT data FROM event_outbox WHERE organization_id = $1', [org]), [{ data: { sync_id: "wfs_O'Brien" } }]);
      assert.deepEqual(await database.owner('SELECT action FROM audit_events WHERE organization_id = $1', [org]), [{ action: 'api_key.created' }]);
    } finally {
      await unprepared.close();
    }
  });
});
