import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadMigrations, type Migration, migrate, migrationStatus } from '../../src/db/migrator.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

let database: TestDatabase;
const real = loadMigrations();
before(async () => {
  database = await openTestDatabase();
});
after(() => database.close());

const fixture = (version: number, sql: string, name = `fixture_${version}`): Migration => ({
  version,
  name,
  sql,
  checksum: `checksum-of-${sql}`,
  file: `/fixtures/${String(version).padStart(4, '0')}_${name}.sql`,
});

const tableExists = async (table: string) => (await database.owner<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [table]))[0]?.found;

describe('migrate', () => {
  test('on a migrated database applies nothing and reports it current', async () => {
    const run = await migrate(database.connection, real);
    assert.deepEqual(run.applied, []);
    assert.deepEqual(run.pending, []);
    assert.equal(run.current, run.latest);
    assert.equal(run.latest, real.at(-1)?.version);
  });

  test('applies a new migration once, in order, and records it', async () => {
    const added = [fixture(9001, 'CREATE TABLE fixture_a (id int)'), fixture(9002, 'ALTER TABLE fixture_a ADD COLUMN b int')];
    const first = await migrate(database.connection, [...real, ...added]);
    assert.deepEqual(
      first.applied.map((m) => m.version),
      [9001, 9002],
    );
    assert.equal(first.current, 9002);
    assert.deepEqual((await migrate(database.connection, [...real, ...added])).applied, []);
    assert.equal(await tableExists('fixture_a'), true);
  });

  test('a failing migration leaves nothing behind and names its file', async () => {
    const broken = fixture(9003, 'CREATE TABLE fixture_half (id int); SELECT no_such_function();', 'broken');
    await assert.rejects(
      migrate(database.connection, [
        ...real,
        fixture(9001, 'CREATE TABLE fixture_a (id int)'),
        fixture(9002, 'ALTER TABLE fixture_a ADD COLUMN b int'),
        broken,
      ]),
      /9003_broken\.sql failed/,
    );
    assert.equal(await tableExists('fixture_half'), false);
    const versions = await database.owner<{ version: number }>('SELECT version FROM gatehouse_migrations WHERE version = 9003');
    assert.deepEqual(versions, []);
  });

  test('refuses an applied migration whose file changed', async () => {
    const changed = [...real.slice(0, -1), { ...(real.at(-1) as Migration), checksum: 'edited' }];
    await assert.rejects(migrationStatus(database.connection, changed), /was changed after it was applied/);
  });

  test('refuses a database that has migrations this code does not know', async () => {
    await assert.rejects(migrationStatus(database.connection, real), /does not know \(9001, 9002\)/);
  });

  test('concurrent runs apply each migration once', async () => {
    const set = [
      ...real,
      fixture(9001, 'CREATE TABLE fixture_a (id int)'),
      fixture(9002, 'ALTER TABLE fixture_a ADD COLUMN b int'),
      fixture(9004, 'CREATE TABLE fixture_c (id int)'),
    ];
    const runs = await Promise.all([migrate(database.connection, set), migrate(database.connection, set)]);
    assert.deepEqual(
      runs.flatMap((r) => r.applied.map((m) => m.version)),
      [9004],
    );
  });

  // On Citus the run that created the table placed it, and each ALTER reaches the workers (src/db/sql-statements.ts).
  test('a later migration of several statements alters a table an earlier run created', async () => {
    const earlier = [
      fixture(9001, 'CREATE TABLE fixture_a (id int)'),
      fixture(9002, 'ALTER TABLE fixture_a ADD COLUMN b int'),
      fixture(9004, 'CREATE TABLE fixture_c (id int)'),
    ];
    const created = fixture(9005, 'CREATE TABLE fixture_d (id int PRIMARY KEY)');
    await migrate(database.connection, [...real, ...earlier, created]);
    const altered = fixture(
      9006,
      "ALTER TABLE fixture_d ADD COLUMN note text CONSTRAINT fixture_d_note_short CHECK (length(note) < 10);\nCOMMENT ON COLUMN fixture_d.note IS 'a; note';\nALTER TABLE fixture_d ALTER COLUMN note SET DEFAULT 'none';",
    );
    assert.deepEqual((await migrate(database.connection, [...real, ...earlier, created, altered])).applied, [{ version: 9006, name: 'fixture_9006' }]);
    await database.owner('INSERT INTO fixture_d (id) VALUES (1)');
    assert.deepEqual(await database.owner('SELECT note FROM fixture_d'), [{ note: 'none' }]);
  });
});

describe('loadMigrations', () => {
  const makeTree = (files: Record<string, string>) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-migrations-'));
    for (const [file, sql] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), sql);
    }
    return root;
  };

  test('collects the platform and every feature folder, ordered by version', () => {
    const root = makeTree({
      'db/migrations/0001_platform.sql': 'SELECT 1',
      'features/visits/migrations/0003_visits.sql': 'SELECT 3',
      'features/audit/migrations/0002_audit.sql': 'SELECT 2',
      'features/health/index.ts': '',
    });
    assert.deepEqual(
      loadMigrations(root).map((m) => `${m.version}:${m.name}`),
      ['1:platform', '2:audit', '3:visits'],
    );
  });

  test('refuses two files with one version, and badly named files', () => {
    const clash = makeTree({ 'db/migrations/0001_a.sql': '', 'features/x/migrations/0001_b.sql': '' });
    assert.throws(() => loadMigrations(clash), /both claim version 1/);
    const badName = makeTree({ 'db/migrations/1-init.sql': '' });
    assert.throws(() => loadMigrations(badName), /named NNNN_name\.sql/);
  });
});
