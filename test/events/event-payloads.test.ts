/**
 * The typed payload and the example the OpenAPI document gives for each event type are what the
 * service really sends: a scenario makes the service emit every event type a request can cause,
 * and each real event's `data` must validate against its type's schema and carry exactly the
 * fields of the documented example.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { EVENT_PAYLOADS } from '../../src/events/event-payloads.ts';
import type { EventType } from '../../src/events/event-types.ts';
import { createTenant, type TestTenant } from '../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { loadTestLists } from '../helpers/test-lists.ts';

let harness: TestApp;
let org: TestTenant;
before(async () => {
  harness = await buildTestApp();
  org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
  await loadTestLists(harness);
});
after(() => harness.close());

const call = async (method: 'POST' | 'PUT', url: string, payload: object) => {
  const response = await harness.app.inject({ method, url: `/api/v1${url}`, headers: org.headers, payload });
  assert.ok(response.statusCode < 300, `${method} ${url}: ${response.body}`);
  return response.json();
};

test('every event a request causes validates against its documented payload and has its example’s fields', async () => {
  const listed = await call('POST', '/prescreen', { subject: 'Karim Yusuf Abu-Ali', reference: 'events-test' });
  await call('POST', `/adjudication/${listed.case_id}/disposition`, { disposition: 'CLEARED', reason: 'Another man.' });
  const visit = await call('POST', '/checkin', { visitor: { name: 'Ana Novak' }, site: 'HQ' });
  await call('POST', `/sessions/${visit.id}/update`, { status: 'checked_out' });
  const held = await call('POST', '/checkin', { visitor: { name: 'Karim Abu Ali', date_of_birth: '1961-02-12' }, site: 'HQ' });
  await call('POST', `/sessions/${held.id}/update`, { status: 'escalated' });
  await call('PUT', '/workforce/sync', { mode: 'upsert', profiles: [{ external_id: 'w1', name: 'Ann Lee' }] });
  const watchlist = await call('POST', '/watchlists', { slug: 'events-test', name: 'Events test' });
  await call('POST', `/watchlists/${watchlist.id}/entries`, { name: 'Ann Example Lee', reason: 'Test.', severity: 'yellow' });

  const events = await harness.database.owner<{ type: EventType; data: Record<string, unknown> }>(
    'SELECT type, data FROM event_outbox WHERE organization_id = $1 ORDER BY id',
    [org.organizationId],
  );
  const ajv = (addFormatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020)(new Ajv2020({ strict: false }));
  const seen = new Set<string>();
  for (const event of events) {
    const schema = EVENT_PAYLOADS[event.type] as { examples: Record<string, unknown>[] };
    const validate = ajv.compile(schema);
    assert.ok(validate(event.data), `${event.type}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(event.data)}`);
    const [example] = schema.examples;
    assert.deepEqual(Object.keys(event.data).sort(), Object.keys(example ?? {}).sort(), `${event.type}: the documented example's fields`);
    seen.add(event.type);
  }
  const expected = [
    'screening.completed',
    'case.opened',
    'case.disposition_applied',
    'visitor.checked_in',
    'visitor.checked_out',
    'session.escalated',
    'workforce.sync_completed',
    'watchlist.changed',
  ];
  assert.deepEqual([...seen].filter((t) => expected.includes(t)).sort(), [...expected].sort());
});
