/**
 * Webhooks in the service as operators run it: its own process, real HTTP both ways.
 * - The process is killed (SIGKILL) while a receiver holds a delivery open; restarted, it sends
 *   exactly the events that were not acknowledged, with the webhook-id they had.
 * - An inbound webhook full of personal data leaves none of it anywhere: not in any table of the
 *   database (read as its owner), not in the audit trail, not in the logs. Only its keys, and of
 *   those not the ones that are themselves personal data (an email, a name, a phone number).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { Webhook } from 'standardwebhooks';
import { processDatabase, type ServerProcess, startServerProcess, startWithAdminKey } from './helpers/server-process.ts';
import type { OwnerSql } from './helpers/test-database.ts';
import { type Receiver, startReceiver } from './helpers/webhooks.ts';

/** Personal data a visitor system might send; every value distinctive enough to be searched for. */
const PERSONAL = {
  full_name: 'Quillon Varnette-Okafor',
  email: 'q.varnette.okafor@example.org',
  phone: '+1-555-0134-7788',
  date_of_birth: '1984-07-19',
  passport: { number: 'XK98765432', nationality: 'Zembla-Republic' },
  home: { street: '42 Wallaby Waystreet', city: 'Sydneyexampleton' },
  national_id: '078-05-1120',
  notes: ['allergic to penicillin-zq', { escort: 'Ermintrude Plaskett' }],
  // Personal data as member names, as a system that keys its attendees by person sends it.
  attendees: { 'odalys.brenkmann@example.net': { escorted: true }, 'Thaddeus Quorvin': { escorted: false }, '+44 7700 913377': { escorted: true } },
};
const personalValues = (value: unknown): string[] => (typeof value === 'string' ? [value] : Object.values(value as object).flatMap((v) => personalValues(v)));
/** Each member name of the attendees, whole and by its distinctive parts. */
const personalNames = [...Object.keys(PERSONAL.attendees), 'odalys', 'brenkmann', 'Thaddeus', 'Quorvin', '913377'];

describe('webhooks in the running service', () => {
  let storage: Awaited<ReturnType<typeof processDatabase>>;
  let receiver: Receiver;
  let env: Record<string, string>;
  let headers: Record<string, string>;
  let server: ServerProcess | undefined;
  /** Every log line of the server processes stopped so far. */
  let logs = '';
  async function stopServer(signal: NodeJS.Signals) {
    await server?.stop(signal);
    logs += server?.stdout() ?? '';
    server = undefined;
  }
  const api = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    fetch(`${server?.baseUrl}/v1${path}`, {
      method: init.method ?? 'GET',
      headers: { ...headers, ...(init.body !== undefined && { 'content-type': 'application/json' }), ...init.headers },
      ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
    });

  before(async () => {
    storage = await processDatabase();
    receiver = await startReceiver();
    env = {
      ...storage.env,
      LISTS_DIR: path.resolve('test/fixtures/ofac'),
      WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiver.port}`,
      WEBHOOK_DELIVERY_TIMEOUT_MS: '1000', // the lease of a dead worker's delivery: 3 s
      WEBHOOK_POLL_INTERVAL_MS: '50',
      WEBHOOK_DELIVERY_CONCURRENCY: '1', // one at a time, so "which were acknowledged" is exact
    };
    headers = { authorization: `Bearer ${await adminKey()}` };
  });

  /** Starts the server and makes an admin key for it (see startWithAdminKey). */
  async function adminKey(): Promise<string> {
    const started = await startWithAdminKey(storage, env);
    server = started.server;
    return started.key;
  }
  after(async () => {
    await stopServer('SIGKILL');
    await receiver.close();
    await storage.cleanup();
  });

  test('killed mid-delivery and restarted, it delivers exactly the events not yet acknowledged, with the same webhook-id', async () => {
    server ??= await startServerProcess(env);
    const endpoint = (await (
      await api('/webhook-endpoints', { method: 'POST', body: { url: receiver.url('/e2e'), events: ['screening.completed'] } })
    ).json()) as { id: string; secret: string };
    assert.match(endpoint.secret, /^whsec_/, JSON.stringify(endpoint));
    receiver.plan({ status: 200 }, { status: 200 }, 'hang');
    for (const subject of ['Alpha Visitor', 'Bravo Visitor', 'Charlie Visitor', 'Delta Visitor', 'Echo Visitor']) {
      const response = await api('/prescreen', { method: 'POST', body: { subject } });
      assert.equal(response.status, 201, await response.text());
    }
    const feed = (await (await api('/events?type=screening.completed')).json()) as { data: { id: string }[] };
    const events = feed.data.map((e) => e.id);
    assert.equal(events.length, 5);

    await receiver.waitFor(3); // two acknowledged, the third held open
    await stopServer('SIGKILL');
    const [acknowledged, held] = [receiver.received.slice(0, 2), receiver.received[2]];
    assert.deepEqual(
      acknowledged.map((r) => r.headers['webhook-id']),
      events.slice(0, 2),
      'in order, one at a time',
    );
    assert.equal(held?.headers['webhook-id'], events[2]);

    server = await startServerProcess(env);
    const all = await receiver.waitFor(6, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 500)); // nothing more should come
    const afterRestart = all.slice(3).map((r) => r.headers['webhook-id']);
    assert.deepEqual([...afterRestart].sort(), events.slice(2).sort(), 'exactly the three not acknowledged');
    assert.equal(receiver.received.length, 6, 'and nothing sent twice after an acknowledgement');
    for (const request of all) new Webhook(endpoint.secret).verify(request.body, request.headers as Record<string, string>);

    const deliveries = (await (await api(`/webhook-endpoints/${endpoint.id}/deliveries`)).json()) as { data: { state: string }[] };
    assert.deepEqual(
      deliveries.data.map((d) => d.state),
      ['succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded'],
    );
  });

  test('an inbound webhook full of personal data leaves none in the database, the audit trail or the logs: only its keys', async () => {
    server ??= await startServerProcess(env);
    const response = await api('/webhooks/visitor_checked_in', { method: 'POST', body: PERSONAL, headers: { 'x-request-id': 'e2e-personal-data' } });
    const text = await response.text();
    assert.equal(response.status, 200, text);
    const receipt = JSON.parse(text) as { id: string };
    await stopServer('SIGTERM');

    const line = logs.split('\n').find((l) => l.includes('e2e-personal-data') && l.includes('inbound webhook received'));
    assert.ok(line, 'the keys are logged with the request id');
    assert.deepEqual(JSON.parse(line).key_paths, [
      'attendees',
      'attendees.<key>',
      'attendees.<key>.escorted',
      'date_of_birth',
      'email',
      'full_name',
      'home',
      'home.city',
      'home.street',
      'national_id',
      'notes',
      'notes[].escort',
      'passport',
      'passport.nationality',
      'passport.number',
      'phone',
    ]);

    const tables = await everyTableAsOwner();
    assert.ok(tables.inbound_webhook_receipts?.includes(receipt.id), 'the receipt is in the database');
    assert.ok(tables.audit_events?.length, 'the audit trail was searched');
    for (const value of [...personalValues(PERSONAL), ...personalNames]) {
      assert.ok(!logs.includes(value), `"${value}" is in the logs`);
      for (const [table, text] of Object.entries(tables)) assert.ok(!text.includes(value), `"${value}" is in table ${table}`);
    }
  });

  /** Every table of the database, each read whole as its owner, as text. */
  async function everyTableAsOwner(): Promise<Record<string, string>> {
    const query = async (run: (sql: string) => Promise<Record<string, unknown>[]>) => {
      const names = (await run("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'")).map((r) =>
        String(r.table_name),
      );
      const tables: Record<string, string> = {};
      for (const name of names) tables[name] = (await run(`SELECT t::text AS row FROM ${name} t`)).map((r) => String(r.row)).join('\n');
      return tables;
    };
    if (storage.dataDir) {
      const owner = await PGlite.create(path.join(storage.dataDir, 'pgdata'));
      try {
        return await query(async (sql) => (await owner.query<Record<string, unknown>>(sql)).rows);
      } finally {
        await owner.close();
      }
    }
    // Past row-level security, which would hide every organization's rows from a non-superuser owner.
    const owner = storage.owner as OwnerSql;
    return query((sql) => owner(sql));
  }
});
