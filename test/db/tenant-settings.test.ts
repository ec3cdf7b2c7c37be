/**
 * Tenant settings (src/db/tenant-settings.ts): what a tenant transaction's opening query sets, that
 * it lasts exactly as long as the transaction, and what `tenantSettingsOf` answers from it.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import type { Connection } from '../../src/db/connection.ts';
import { createDatabase, type Database } from '../../src/db/database.ts';
import { openPostgresConnection } from '../../src/db/postgres-connection.ts';
import { type Actor, type TenantTransaction, tenantSettingsOf } from '../../src/db/tenant.ts';
import { openingQuery } from '../../src/db/tenant-settings.ts';
import { createOrganization } from '../helpers/credentials.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

let database: TestDatabase;
/** The service's database on one connection (the embedded one has only one), so that what a transaction leaves on its connection is what the next one finds. */
let single: Database;
let singleConnection: Connection;
let org: string;
before(async () => {
  database = await openTestDatabase();
  singleConnection = database.url ? await openPostgresConnection({ url: database.url, poolSize: 1 }) : database.connection;
  single = database.url ? await createDatabase(singleConnection, { statementTimeoutMs: 10_000 }) : database.db;
  org = await createOrganization(database.owner);
});
after(async () => {
  if (single !== database.db) await single.close();
  await database.close();
});

const actorOf = (organizationId: string, id = 'key_settings'): Actor => ({ organizationId, kind: 'api_key', id });

type Seen = { who: string; organization: string | null; actor: string | null; timeout: string };
const SEEN = sql<Seen>`SELECT current_user AS who, current_setting('app.organization_id', true) AS organization,
                             current_setting('app.actor', true) AS actor, current_setting('statement_timeout') AS timeout`;
const seen = (trx: TenantTransaction) => SEEN.execute(trx);

test('inside, the transaction runs as the runtime role with its organization, actor and statement timeout', async () => {
  const inside = await single.withTenant(actorOf(org), async (trx) => (await seen(trx)).rows[0]);
  assert.deepEqual(inside, { who: 'gatehouse_runtime', organization: org, actor: 'api_key:key_settings', timeout: '10s' });
});

test('every setting ends with the transaction, committed or rolled back: the connection carries nothing to the next one', async () => {
  const other = await createOrganization(database.owner);
  await single.withTenant(actorOf(org), async () => undefined);
  await assert.rejects(
    single.withTenant(actorOf(org), async () => Promise.reject(new Error('failed inside'))),
    /failed inside/,
  );
  // The next transaction on the same connection is another organization's, and sees only its own.
  const next = await single.withTenant(actorOf(other, 'key_other'), async (trx) => ({
    seen: (await seen(trx)).rows[0],
    organizations: (await trx.selectFrom('organizations').select('id').execute()).map((o) => o.id),
  }));
  assert.deepEqual(next, { seen: { who: 'gatehouse_runtime', organization: other, actor: 'api_key:key_other', timeout: '10s' }, organizations: [other] });
  // And outside any tenant transaction: no organization, no actor, the default timeout. (The role: test/db/row-level-security.test.ts.)
  const outside = await singleConnection.withSession((session) => session.query<Seen>(SEEN.compile(singleConnection.kysely).sql));
  assert.ok(outside[0]);
  assert.notEqual(outside[0].who, 'gatehouse_runtime');
  assert.ok(!outside[0].organization, `no organization outside: ${outside[0].organization}`);
  assert.ok(!outside[0].actor, `no actor outside: ${outside[0].actor}`);
  assert.notEqual(outside[0].timeout, '10s');
});

test('tenantSettingsOf answers the organization and the settings stamp the opening query read, only while the transaction is open', async () => {
  const fresh = await createOrganization(database.owner);
  let kept: TenantTransaction | undefined;
  assert.deepEqual(await database.db.withTenant(actorOf(fresh), async (trx) => ((kept = trx), tenantSettingsOf(trx))), {
    organizationId: fresh,
    settingsStamp: '0',
  });
  await database.owner('INSERT INTO settings_stamps (organization_id, stamp) VALUES ($1, 41)', [fresh]);
  assert.equal((await database.db.withTenant(actorOf(fresh), async (trx) => tenantSettingsOf(trx))).settingsStamp, '41');
  assert.throws(() => tenantSettingsOf(kept as TenantTransaction), /has ended or was not opened by withTenant/);
});

test('each setting is a SET LOCAL statement of its own, run by EXECUTE, the role switch and Citus propagation first, before the one statement that reads a table', () => {
  const statements = openingQuery(actorOf(org), { setting: 'session_authorization' }, 5000).text.split('; ');
  assert.equal(statements[0], 'BEGIN');
  // Citus carries a SET LOCAL to every connection of the transaction as the text of the query
  // that ran it: in a simple query of several statements that is the whole query (issue 28).
  const block = statements.slice(1, -1).join('; ');
  assert.match(block, /^DO E'BEGIN (EXECUTE E''SET LOCAL [a-z_.]+ = E''''[^']*''''''; )+END'$/);
  assert.deepEqual(
    [...block.matchAll(/EXECUTE E''(SET LOCAL [a-z_.]+)/g)].map((match) => match[1]),
    [
      'SET LOCAL session_authorization',
      'SET LOCAL citus.propagate_set_commands',
      'SET LOCAL app.organization_id',
      'SET LOCAL app.actor',
      'SET LOCAL statement_timeout',
    ],
  );
  assert.ok(!/\b(FROM|SELECT)\b/i.test(block), 'no setting rides with a read');
  assert.match(statements.at(-1) as string, new RegExp(`FROM settings_stamps WHERE organization_id = E'${org}'`), 'the read names its organization');
});

test('an actor id the database could not hold exactly is refused before the transaction opens, and the connection stays usable', async () => {
  await assert.rejects(
    single.withTenant(actorOf(org, 'key\0nul'), async () => assert.fail('never runs')),
    /NUL/,
  );
  assert.equal(await single.withTenant(actorOf(org), async (trx) => (await seen(trx)).rows[0]?.organization), org);
});
