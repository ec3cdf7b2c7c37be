/**
 * Write at commit (src/db/write-at-commit.ts, rows-at-commit.ts): what a tenant transaction holds
 * is written with COMMIT, in order, and only if the transaction commits; and a statement that
 * would not see what waits (it reads, updates or deletes a table with rows waiting) is refused,
 * naming the table, rather than answered without them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { type AuditContext, appendAuditNow, recordAudit } from '../../src/audit/audit.ts';
import { headSeq } from '../../src/audit/audit-store.ts';
import { rowsAtCommit } from '../../src/db/rows-at-commit.ts';
import { sqlText } from '../../src/db/sql-text.ts';
import type { Actor, TenantTransaction } from '../../src/db/tenant.ts';
import { RowsWaitingForCommit, WritesAtCommit } from '../../src/db/write-at-commit.ts';
import { insertEventNow, recordEvent } from '../../src/events/outbox.ts';
import { newId } from '../../src/ids.ts';
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
const context = (): AuditContext => ({ actor: { ...actor(), role: null }, requestId: 'req_write_at_commit', sourceIp: null });
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

describe('reading back what waits for COMMIT', () => {
  /** Runs `read` after recording an outbox event, and answers what the transaction did. */
  async function afterRecording(read: (trx: TenantTransaction) => Promise<unknown>) {
    const marker = newId('mark');
    const outcome = await inTenant(async (trx) => {
      recordEvent(trx, org, event(marker));
      await read(trx);
    }).then(
      () => 'committed',
      (error: unknown) => error,
    );
    return { outcome, written: await outboxRows(marker) };
  }

  const refusedFor = (table: string) => (error: unknown) =>
    error instanceof RowsWaitingForCommit && error.table === table && error.message.includes(`"${table}" has rows this transaction writes at commit`);

  test('is refused with an error naming the table, and the transaction writes nothing', async () => {
    const { outcome, written } = await afterRecording((trx) => trx.selectFrom('event_outbox').select('id').execute());
    assert.ok(refusedFor('event_outbox')(outcome), String(outcome));
    assert.deepEqual(written, []);
  });

  test('stays refused when the error is caught inside: the transaction still does not commit', async () => {
    const { outcome, written } = await afterRecording(async (trx) => {
      await trx
        .selectFrom('event_outbox')
        .select('id')
        .execute()
        .catch(() => undefined);
    });
    assert.ok(refusedFor('event_outbox')(outcome), String(outcome));
    assert.deepEqual(written, []);
  });

  test('covers updates, deletes, joins, subqueries and SQL written by hand', async () => {
    const reads: [string, (trx: TenantTransaction) => Promise<unknown>][] = [
      ['update', (trx) => trx.updateTable('event_outbox').set({ request_id: 'x' }).where('id', '=', 'evt_none').execute()],
      ['delete', (trx) => trx.deleteFrom('event_outbox').where('id', '=', 'evt_none').execute()],
      [
        'join',
        (trx) =>
          trx.selectFrom('organizations').innerJoin('event_outbox', 'event_outbox.organization_id', 'organizations.id').select('organizations.id').execute(),
      ],
      [
        'subquery',
        (trx) =>
          trx
            .selectFrom('organizations')
            .select('id')
            .where('id', 'in', (q) => q.selectFrom('event_outbox').select('organization_id'))
            .execute(),
      ],
      ['raw', (trx) => sql`SELECT count(*) FROM event_outbox`.execute(trx)],
      ['raw, quoted', (trx) => sql`SELECT count(*) FROM ONLY "event_outbox" WHERE true`.execute(trx)],
    ];
    for (const [kind, read] of reads) {
      const { outcome } = await afterRecording(read);
      assert.ok(refusedFor('event_outbox')(outcome), `${kind}: ${outcome}`);
    }
  });

  test('leaves other tables readable, and more rows may go into the same table now', async () => {
    const marker = newId('mark');
    const ids = await inTenant(async (trx) => {
      const atCommit = recordEvent(trx, org, event(marker));
      assert.equal((await trx.selectFrom('organizations').select('id').execute()).length, 1);
      const now = await insertEventNow(trx, org, event(marker));
      await trx
        .insertInto('event_outbox')
        .values({ organization_id: org, id: newId('evt'), type: 'workforce.sync_completed', data: JSON.stringify({ sync_id: marker }) })
        .execute();
      return [atCommit, now];
    });
    const written = (await outboxRows(marker)).map((row) => row.id);
    assert.equal(written.length, 3);
    for (const id of ids) assert.ok(written.includes(id));
  });

  test('is allowed while nothing waits: before the first row, and for a collection asked for but empty', async () => {
    const [before, after] = await inTenant(async (trx) => {
      const first = await trx.selectFrom('event_outbox').select('id').execute();
      rowsAtCommit(trx, 'event_outbox');
      return [first.length, (await trx.selectFrom('event_outbox').select('id').execute()).length];
    });
    assert.equal(before, after);
  });

  test("covers the audit trail: the chain cannot be read while the transaction's events wait, and can once they are appended now", async () => {
    await assert.rejects(
      inTenant(async (trx) => {
        recordAudit(trx, context(), { action: 'write_at_commit.checked' });
        await headSeq(trx);
      }),
      refusedFor('audit_heads'),
    );
    const seq = await inTenant(async (trx) => {
      recordAudit(trx, context(), { action: 'write_at_commit.checked' });
      await appendAuditNow(trx, context(), { action: 'write_at_commit.appended' });
      return headSeq(trx);
    });
    assert.ok(seq >= 2, `both events are on the chain (head at ${seq})`);
  });
});
