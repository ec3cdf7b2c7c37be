/**
 * A Zapier REST-hook trigger end to end, run by Zapier's own app tester (zapier-platform-core)
 * against the service as its own process, real HTTP both ways: the connection test, a subscribe
 * (and Zapier's retry of it), a real signed delivery to a receiver standing in for Zapier, the
 * delivered event through `perform` and the feed through `performList` giving the same fields as
 * each other and as the app's sample, then the unsubscribe deleting the endpoint.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import type { TObject } from 'typebox';
import { EVENT_PAYLOADS } from '../../src/events/event-payloads.ts';
import { processDatabase, type ServerProcess, startWithAdminKey } from '../helpers/server-process.ts';
import { type Receiver, startReceiver } from '../helpers/webhooks.ts';
import { gatehouseZapierApp } from './gatehouse-zapier-app.ts';

// zapier-platform-core decides when it loads whether it runs under test (NODE_ENV=test): only then does
// a result failing its checks (a trigger answers an array of objects, each with an id) fail the call,
// as under `zapier test`, instead of being logged.
process.env.NODE_ENV = 'test';
const { createAppTester, version: zapierPlatformVersion } = await import('zapier-platform-core');

/** Every field path of a value, as Zapier flattens it for mapping (`data__outcome`). */
const fieldPaths = (value: unknown, prefix = ''): string[] =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? Object.entries(value).flatMap(([key, inner]) => fieldPaths(inner, prefix ? `${prefix}__${key}` : key))
    : [prefix];
const sortedPaths = (value: unknown) => fieldPaths(value).sort();

describe('a Zapier REST-hook trigger run by zapier-platform-core against the running service', () => {
  let storage: Awaited<ReturnType<typeof processDatabase>>;
  let receiver: Receiver;
  let server: ServerProcess;
  let key: string;

  before(async () => {
    storage = await processDatabase();
    receiver = await startReceiver();
    const env = {
      ...storage.env,
      LISTS_DIR: path.resolve('test/fixtures/ofac'),
      WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiver.port}`,
      WEBHOOK_POLL_INTERVAL_MS: '50',
    };
    ({ server, key } = await startWithAdminKey(storage, env));
  });
  after(async () => {
    await server?.stop('SIGKILL');
    await receiver?.close();
    await storage?.cleanup();
  });

  test('subscribe, a real signed delivery, perform and performList giving the same event with the same fields, unsubscribe', async () => {
    const app = gatehouseZapierApp(server.baseUrl, zapierPlatformVersion);
    const hook = app.triggers.screening_completed.operation;
    const appTester = createAppTester(app);
    const authData = { api_key: key };

    const caller = await appTester(app.authentication.test, { authData });
    assert.equal(caller.object, 'caller', JSON.stringify(caller));
    await assert.rejects(appTester(app.authentication.test, { authData: { api_key: 'gk_test_not_a_key' } }), /401/, 'a wrong key fails the connection test');

    const targetUrl = receiver.url('/hooks/standard/1234/abcd');
    const subscribeData = await appTester(hook.performSubscribe, { authData, targetUrl });
    assert.match(subscribeData.id, /^we_/, JSON.stringify(subscribeData));
    assert.match(subscribeData.secret ?? '', /^whsec_/);
    const retried = await appTester(hook.performSubscribe, { authData, targetUrl });
    assert.equal(retried.id, subscribeData.id, "Zapier's retried subscribe is the same endpoint, not a second one doubling deliveries");

    const screened = await fetch(`${server.baseUrl}/v1/prescreen`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 'Karim Yusuf Abu-Ali', reference: 'zapier-e2e-1' }),
    });
    assert.equal(screened.status, 201, await screened.text());

    const [delivery] = await receiver.waitFor(1, 30_000);
    assert.ok(delivery);
    assert.equal(delivery.path, '/hooks/standard/1234/abcd');
    new Webhook(subscribeData.secret as string).verify(delivery.body, delivery.headers as Record<string, string>);
    const delivered = JSON.parse(delivery.body);

    const fromHook = await appTester(hook.perform, { authData, targetUrl, subscribeData, cleanedRequest: delivered });
    const fromList = await appTester(hook.performList, { authData, subscribeData });
    assert.equal(fromHook.length, 1);
    assert.ok(fromList.length >= 1, 'the feed lists the event');
    const [live, listed] = [fromHook[0], fromList[0]];
    assert.equal(live.id, delivery.headers['webhook-id'], 'the event id is the delivery’s webhook-id, by which Zapier de-duplicates');
    assert.equal(live.type, 'screening.completed');
    assert.equal(live.data.outcome, 'potential_match', 'the listed name matched');
    assert.equal(live.data.reference, 'zapier-e2e-1');
    assert.deepEqual(sortedPaths(listed), sortedPaths(live), 'performList gives the fields perform does');
    assert.deepEqual(listed, live, 'and, for the same event, the same values');

    // A Zap is built on the sample: every field mapped there must come in live deliveries.
    assert.deepEqual(sortedPaths(hook.sample), sortedPaths(live), "the app's sample has the fields of a live event");
    const documented = Object.keys((EVENT_PAYLOADS['screening.completed'] as TObject).properties).sort();
    assert.deepEqual(Object.keys(live.data).sort(), documented, 'its data has the fields the API description documents for the type');

    await appTester(hook.performUnsubscribe, { authData, subscribeData });
    const gone = await fetch(`${server.baseUrl}/v1/webhook-endpoints/${subscribeData.id}`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(gone.status, 404, 'the endpoint is deleted');
  });
});
