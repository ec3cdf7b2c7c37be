/**
 * What README.md promises integrators, read from the README itself and compared with what the
 * code does, so the two cannot drift apart: the webhook retry schedule, and the fields of the
 * visitor events (as the payload schemas give them, and as a real check-in emits them).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { EVENT_PAYLOADS } from '../src/events/event-payloads.ts';
import { RETRY_SCHEDULE_SECONDS } from '../src/webhooks/retry-schedule.ts';
import { createTenant, type TestTenant } from './helpers/credentials.ts';
import { buildTestApp, type TestApp } from './helpers/test-app.ts';
import { loadTestLists } from './helpers/test-lists.ts';

const README = fs.readFileSync(new URL('../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');

let harness: TestApp;
let org: TestTenant;
before(async () => {
  harness = await buildTestApp();
  org = await createTenant(harness.database.owner, { tier: 'defense' });
  await loadTestLists(harness);
});
after(() => harness.close());

const inWords = (seconds: number) => (seconds < 60 ? `${seconds} s` : seconds < 3600 ? `${seconds / 60} min` : `${seconds / 3600} h`);

test("README's webhook retry delays are the schedule the deliveries follow", () => {
  const said = /is retried after ([^(]+?) \(±10 %/.exec(README)?.[1];
  assert.ok(said, 'README states the retry delays');
  const delays = RETRY_SCHEDULE_SECONDS.slice(1).map(inWords);
  assert.equal(said, `${delays.slice(0, -1).join(', ')} and ${delays.at(-1)}`);
});

test("README's visitor event fields are the payload's, and a real check-in emits exactly them", async () => {
  const said = /`session\.escalated`, whose `data` is ([^(]+?) \(/.exec(README)?.[1];
  assert.ok(said, 'README states the visitor events’ fields');
  const fields = [...said.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]).sort();
  for (const type of ['visitor.checked_in', 'visitor.checked_out', 'session.escalated'] as const) {
    assert.deepEqual(Object.keys((EVENT_PAYLOADS[type] as { properties: object }).properties).sort(), fields, type);
  }
  const session = (
    await harness.app.inject({ method: 'POST', url: '/api/v1/checkin', headers: org.headers, payload: { visitor: { name: 'Ana Novak' }, site: 'HQ' } })
  ).json();
  assert.equal(session.status, 'checked_in');
  const [event] = await harness.database.owner<{ data: Record<string, unknown> }>(
    "SELECT data FROM event_outbox WHERE type = 'visitor.checked_in' AND data->>'session_id' = $1",
    [session.id],
  );
  assert.deepEqual(Object.keys(event?.data ?? {}).sort(), fields);
  const validate = new Ajv2020({ strict: false }).compile(EVENT_PAYLOADS['visitor.checked_in']);
  assert.ok(validate(event?.data), JSON.stringify(validate.errors));
});
