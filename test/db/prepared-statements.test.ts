import assert from 'node:assert/strict';
import { test } from 'node:test';
import { statementName } from '../../src/db/prepared-statements.ts';

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
