/**
 * Write at commit (src/db/write-at-commit.ts, rows-at-commit.ts): what a tenant transaction holds
 * is written with COMMIT, in order, and only if the transaction commits.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sqlText } from '../../src/db/sql-text.ts';
import type { Actor, TenantTransaction } from '../../src/db/tenant.ts';
import { WritesAtCommit } from '../../src/db/write-at-commit.ts';
import { recordEvent } from '../../src/events/outbox.ts';
import { createOrganization } from '../helpers/credentials.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

let database: TestDatabase;
let org: string;
before(async () => {
  database = await openTestDatabase();
  org = await createOrganization(database.owner);
});
after(() => database.close());

const actor: () => Actor = () => ({ organizationId: org, kind: 'system', id: 'write-at-commit' });
const inTenant = <T>(fn: (trx: TenantTransaction) => Promise<T>) => database.db.withTenant(actor(), fn);
const event = (marker: string) => ({ type: 'workforce.sync_completed' as const, data: { sync_id: marker } });
const outboxRows = (marker: string) =>
  database.owner<{ id: string }>("SELECT id FROM event_outbox WHERE organization_id = $1 AND data->>'sync_id' = $2 ORDER BY id", [org, marker]);

describe('the writes held for COMMIT', () => {
  test('are written when the transaction commits, and never when it fails', async () => {
    const id = await inTenant(async (trx) => recordEvent(trx, org, event('committed')));
    assert.deepEqual(await outboxRows('committed'), [{ id }]);
    await assert.rejects(
      inTenant(async (trx) => {
        recordEvent(trx, org, event('failed'));
        throw new Error('the work failed after recording');
      }),
      /the work failed after recording/,
    );
    assert.deepEqual(await outboxRows('failed'), []);
  });

  test('go in the order their collections were first asked for, a `last` one after the rest, each with what it holds at the end', () => {
    const writes = new WritesAtCommit();
    const statement = (name: string) => (items: number[]) => ({ text: sqlText`SELECT ${name}, $1::jsonb`, json: JSON.stringify(items) });
    const a = writes.collect(Symbol('a'), statement('a'));
    const audit = writes.collect(Symbol('audit'), statement('audit'), { last: true });
    writes.collect(Symbol('empty'), statement('empty'));
    const b = writes.collect(Symbol('b'), statement('b'));
    audit.push(1);
    b.push(2);
    a.push(3, 4);
    assert.deepEqual(
      writes.statements().map(({ text, json }) => `${text.text} ${json}`),
      ["SELECT E'a', $1::jsonb [3,4]", "SELECT E'b', $1::jsonb [2]", "SELECT E'audit', $1::jsonb [1]"],
      'the empty collection writes nothing',
    );
  });
});
