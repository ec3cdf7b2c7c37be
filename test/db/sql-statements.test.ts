/**
 * A migration split into its statements (src/db/sql-statements.ts), as the migrator sends it on
 * Citus: at the semicolons that end statements, never inside a string, a quoted name, a
 * dollar-quoted body or a comment.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadMigrations } from '../../src/db/migrator.ts';
import { splitStatements } from '../../src/db/sql-statements.ts';

test('splits at each semicolon that ends a statement, leaving out empty ones', () => {
  assert.deepEqual(splitStatements('CREATE TABLE a (id int);\nALTER TABLE a ADD COLUMN b int;;\n\nSELECT 1'), [
    'CREATE TABLE a (id int)',
    'ALTER TABLE a ADD COLUMN b int',
    'SELECT 1',
  ]);
});

test('keeps semicolons inside strings, quoted names and comments', () => {
  const statements = splitStatements(
    [
      "INSERT INTO t VALUES ('a;b', 'it''s; fine', E'back\\'; slash')",
      'SELECT 1 AS "odd;""name"',
      '-- a comment; with a semicolon\nSELECT 2',
      '/* a block /* nested; */ comment; */ SELECT 3',
    ].join(';\n'),
  );
  assert.equal(statements.length, 4, statements.join('\n|\n'));
  assert.match(statements[2] as string, /^-- a comment; with a semicolon\nSELECT 2$/);
  assert.match(statements[3] as string, /SELECT 3$/);
});

test('keeps a dollar-quoted body whole, whatever its tag, and tells a parameter or a name with $ from one', () => {
  const body = `CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $fn$ BEGIN PERFORM 1; RETURN $1; END $fn$`;
  const anonymous = 'DO $$ BEGIN PERFORM 1; END $$';
  assert.deepEqual(splitStatements(`${body};\n${anonymous};\nSELECT a$b$ FROM t WHERE x = $1; SELECT 4`), [
    body,
    anonymous,
    'SELECT a$b$ FROM t WHERE x = $1',
    'SELECT 4',
  ]);
});

test('a comment alone is no statement', () => {
  assert.deepEqual(splitStatements('SELECT 1;\n-- the end\n/* really */\n'), ['SELECT 1']);
});

test('refuses a BEGIN ATOMIC body, whose semicolons would be cut apart', () => {
  assert.throws(
    () => splitStatements('CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END;'),
    /BEGIN ATOMIC body: dollar-quote the function body/,
  );
});

// That each is cut where it should be, the migrations on Citus show: all of them run a statement at a time there.
test('nothing of a migration is lost: its statements are its text, in order, with only semicolons and space between', () => {
  for (const migration of loadMigrations()) {
    const statements = splitStatements(migration.sql);
    assert.ok(statements.length > 0, migration.file);
    // Nothing lost or changed: the statements appear in the file in order, only whitespace and semicolons between.
    let at = 0;
    for (const statement of statements) {
      const found = migration.sql.indexOf(statement, at);
      assert.ok(found >= 0, `${migration.file}: ${statement.slice(0, 80)}`);
      assert.match(migration.sql.slice(at, found), /^[\s;]*$/, migration.file);
      at = found + statement.length;
    }
    assert.match(migration.sql.slice(at), /^[\s;]*$/, migration.file);
  }
});
