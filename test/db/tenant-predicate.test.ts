/**
 * The second wall (src/db/tenant-predicate.ts): every SELECT, UPDATE and DELETE a tenant
 * transaction builds names its organization for each tenant table it reads, in WHERE for a table
 * in FROM and in ON for a joined one (a LEFT JOIN stays one), subqueries too, as a bind parameter;
 * an INSERT is left as it is. Its table list is the database's: every table row-level security
 * walls off by organization_id, and no other.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import type { Schema } from '../../src/db/schema.ts';
import { namingOrganization, TENANT_TABLES } from '../../src/db/tenant-predicate.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

const ORG = 'org_01jbz4r2c6a1b3d5f7h9k1m3np';
const db = new Kysely<Schema>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
}).withPlugin(namingOrganization(ORG));

test('a read names the organization of each tenant table, as a parameter: in WHERE for FROM, in ON for a join', () => {
  const { sql, parameters } = db
    .selectFrom('cases')
    .leftJoin('screenings as s', 's.id', 'cases.screening_id')
    .select(['cases.id', 's.record'])
    .where('cases.status', '=', 'OPEN')
    .compile();
  assert.match(sql, /left join "screenings" as "s" on "s"\."id" = "cases"\."screening_id" and "s"\."organization_id" = \$\d/);
  assert.match(sql, /where "cases"\."status" = \$\d and "cases"\."organization_id" = \$\d/);
  assert.deepEqual(
    parameters.filter((p) => p === ORG),
    [ORG, ORG],
  );
});

test('subqueries, updates and deletes name it too; a table that is not a tenant table and an insert are left alone', () => {
  const sub = db.selectFrom('list_versions').select('id').where('id', 'in', db.selectFrom('ownership_checks').select('id')).compile().sql;
  assert.doesNotMatch(sub, /"list_versions"\."organization_id"/);
  assert.match(sub, /from "ownership_checks" where "ownership_checks"\."organization_id" = \$1/);
  assert.match(db.updateTable('cases').set({ assignee: null }).where('id', '=', 'x').compile().sql, /where "id" = \$2 and "cases"\."organization_id" = \$3/);
  assert.match(db.deleteFrom('idempotency_keys').where('key', '=', 'k').compile().sql, /and "idempotency_keys"\."organization_id" = \$2/);
  const insert = db
    .insertInto('vendors')
    .values({ organization_id: ORG, id: 'ven_x', name: 'n' } as never)
    .compile();
  assert.doesNotMatch(insert.sql, /where/);
});

let database: TestDatabase;
before(async () => {
  database = await openTestDatabase();
});
after(() => database.close());

test('its tables are the ones row-level security walls off by organization_id, every one', async () => {
  const rows = await database.owner<{ table: string }>(
    `SELECT c.relname AS table FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relrowsecurity
        AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'organization_id' AND NOT a.attisdropped)
      ORDER BY 1`,
  );
  assert.deepEqual(
    rows.map((r) => r.table),
    [...TENANT_TABLES].sort(),
  );
});
