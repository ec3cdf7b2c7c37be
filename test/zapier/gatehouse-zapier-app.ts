/**
 * A Zapier integration of Gatehouse, as small as a working one can be: what an integrator writes,
 * kept here as the fixture of rest-hook.test.ts, which runs it through Zapier's own app tester.
 * - API key authentication: every request carries the key as a Bearer token; the connection
 *   test is GET /me, which answers 200 for any key that works.
 * - One REST-hook trigger, "Screening Completed": subscribing creates a webhook endpoint at
 *   Zapier's target URL, unsubscribing deletes it. A delivery's body is the event itself, and
 *   the events feed lists the same envelope, so the sample Zapier shows while a Zap is built
 *   (performList: the newest events of the type) has the fields live deliveries will have.
 * A published app names the API's address once; this one takes it, the test's server being on
 * a port of the moment.
 */
import type { Bundle, HttpRequestOptions, ZObject } from 'zapier-platform-core';
import { payloadExample } from '../../src/events/event-payloads.ts';

const EVENT_TYPE = 'screening.completed';

type Endpoint = { id: string; secret?: string };

export function gatehouseZapierApp(apiBaseUrl: string, platformVersion: string) {
  const v1 = `${apiBaseUrl}/v1`;

  const addApiKey = (request: HttpRequestOptions, _z: ZObject, bundle: Bundle) => {
    request.headers = { ...request.headers, authorization: `Bearer ${bundle.authData.api_key}` };
    return request;
  };

  const testConnection = async (z: ZObject) => (await z.request({ url: `${v1}/me` })).data;

  const subscribe = async (z: ZObject, bundle: Bundle): Promise<Endpoint> => {
    const response = await z.request({
      url: `${v1}/webhook-endpoints`,
      method: 'POST',
      body: { url: bundle.targetUrl, events: [EVENT_TYPE], description: 'Zapier' },
      skipThrowForStatus: true,
    });
    // Zapier retries a subscribe whose answer it lost: the endpoint made the first time is answered
    // 409 with its id, which is all an unsubscribe needs (its secret was shown only the first time).
    if (response.status === 409) return { id: response.data.endpoint_id };
    response.throwForStatus();
    return response.data;
  };

  const unsubscribe = async (z: ZObject, bundle: Bundle) =>
    (await z.request({ url: `${v1}/webhook-endpoints/${bundle.subscribeData?.id}`, method: 'DELETE' })).data;

  /** The delivered event, as Zapier parsed its JSON body. */
  const fromDelivery = async (_z: ZObject, bundle: Bundle) => [bundle.cleanedRequest];

  /** Each event has an `id` (the webhook-id of its deliveries), by which Zapier de-duplicates. */
  const newestEvents = async (z: ZObject) => (await z.request({ url: `${v1}/events`, params: { type: EVENT_TYPE, order: 'newest', limit: '10' } })).data.data;

  return {
    version: '1.0.0',
    platformVersion,
    // Zapier's logging of every HTTP request would otherwise patch http and fetch for the whole test process.
    flags: { skipHttpPatch: true },
    authentication: {
      type: 'custom' as const,
      fields: [
        {
          key: 'api_key',
          label: 'API key',
          type: 'password' as const,
          required: true,
          helpText: 'An admin key of your organization (webhook endpoints need one).',
        },
      ],
      test: testConnection,
    },
    beforeRequest: [addApiKey],
    triggers: {
      screening_completed: {
        key: 'screening_completed',
        noun: 'Screening',
        display: { label: 'Screening Completed', description: 'Triggers when a screening completes, clear or with potential matches.' },
        operation: {
          type: 'hook' as const,
          performSubscribe: subscribe,
          performUnsubscribe: unsubscribe,
          perform: fromDelivery,
          performList: newestEvents,
          sample: {
            object: 'event',
            id: 'evt_01jbz4r2c8n5p7q9s1t3v5w7xy',
            type: EVENT_TYPE,
            timestamp: '2026-11-20T09:31:12.204Z',
            data: payloadExample(EVENT_TYPE),
          },
        },
      },
    },
  };
}
