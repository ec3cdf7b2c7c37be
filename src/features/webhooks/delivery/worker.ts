/**
 * The delivery worker: leases due deliveries (any number of workers share them through
 * `FOR UPDATE SKIP LOCKED`, on Citus through a claim that checks again, migration 0053), and for
 * each one reads what to send in a short tenant transaction, commits, sends with no transaction
 * open (the embedded database has one connection), then
 * records the attempt and what comes next in another. A worker that dies mid-delivery leaves its
 * lease to run out; the delivery is then sent again, with the same webhook-id.
 *
 * Time and randomness are injected, so tests can walk the retry schedule without sleeping.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { WithTenant } from '../../../db/tenant.ts';
import { eventEnvelope } from '../../../events/event-envelope.ts';
import type { AddressPolicy } from '../../../webhooks/address-policy.ts';
import type { SecretBox } from '../../../webhooks/secret-box.ts';
import { activeSecrets } from '../../../webhooks/signing-secrets.ts';
import { SIGNATURE_HEADERS, signatureHeader } from '../../../webhooks/standard-webhooks.ts';
import { endpointSecretContext } from '../secret-context.ts';
import type { DeliveryKey } from '../tables.ts';
import { claimDue, deliveryActor, loadClaimed } from './delivery-store.ts';
import type { Resolver } from './destination.ts';
import { sendWebhook } from './sender.ts';
import { settleAttempt } from './settle.ts';

export type DeliveryWorkerOptions = {
  withTenant: WithTenant;
  secrets: SecretBox;
  policy: AddressPolicy;
  resolve: Resolver;
  timeoutMs: number;
  concurrency: number;
  pollIntervalMs: number;
  userAgent: string;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  clock?: () => Date;
  random?: () => number;
};

export type DeliveryWorker = {
  /** Runs until `stop`, polling when idle. */
  start(): void;
  /** Stops claiming, interrupts the deliveries in flight and waits for them to wind up. */
  stop(): Promise<void>;
  /** Claims what is due now (up to `concurrency`) and delivers it; resolves with how many. */
  runOnce(): Promise<number>;
};

type Claimed = DeliveryKey & { token: string };

export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const clock = options.clock ?? (() => new Date());
  const random = options.random ?? Math.random;
  // Longer than an attempt can take (the timeout covers DNS and HTTP), with room for the two short transactions.
  const leaseMs = 2 * options.timeoutMs + 1_000;
  const { withTenant, log } = options;
  // Stopping aborts the requests in flight rather than waiting out their timeouts: shutdown stays
  // within its grace period, and an interrupted delivery is simply sent again (same webhook-id).
  const stopped = new AbortController();

  async function claim(max: number): Promise<Claimed[]> {
    const now = clock();
    const token = randomUUID();
    const keys = await claimDue(withTenant, { token, dueAt: now, leaseUntil: new Date(now.getTime() + leaseMs), max });
    return keys.map((key) => ({ ...key, token }));
  }

  async function deliver(claimed: Claimed): Promise<void> {
    const { token, ...key } = claimed;
    const actor = deliveryActor(key.organizationId);
    const work = await withTenant(actor, (trx) => loadClaimed(trx, key, token));
    if (!work) return; // redelivered, cancelled or deleted since the claim
    const now = clock();
    const body = JSON.stringify(eventEnvelope(work.event));
    const timestamp = Math.floor(now.getTime() / 1000);
    const secrets = activeSecrets(options.secrets, work.sealed, endpointSecretContext(key.organizationId, key.endpointId), now);
    const headers = {
      [SIGNATURE_HEADERS.id]: key.eventId,
      [SIGNATURE_HEADERS.timestamp]: String(timestamp),
      [SIGNATURE_HEADERS.signature]: signatureHeader(secrets, key.eventId, timestamp, body),
    };
    const { policy, resolve, timeoutMs, userAgent } = options;
    const result = await sendWebhook(work.url, headers, body, { policy, resolve, timeoutMs, userAgent, now: clock, signal: stopped.signal });
    const settled = await withTenant(actor, (trx) => settleAttempt(trx, { key, token, attemptedAt: now, result, now: clock(), random }));
    log.info(
      {
        endpoint_id: key.endpointId,
        event_id: key.eventId,
        event_type: work.event.type,
        host: new URL(work.url).host, // the path can be a capability (hooks.zapier.com/…): not logged
        outcome: result.outcome,
        status: result.status,
        latency_ms: result.latencyMs,
        ...settled,
      },
      'webhook delivery attempt',
    );
  }

  const deliverLogged = (claimed: Claimed) =>
    deliver(claimed).catch((error) => {
      const where = { endpoint_id: claimed.endpointId, event_id: claimed.eventId };
      if (stopped.signal.aborted) log.info(where, 'webhook delivery interrupted by shutdown; sent again when its lease ends');
      else log.error({ err: error, ...where }, 'webhook delivery failed; retried when its lease ends');
    });

  let stopping = false;
  let running: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  const inFlight = new Set<Promise<void>>();
  const idle = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function loop() {
    while (!stopping) {
      let claimedCount = 0;
      try {
        const free = options.concurrency - inFlight.size;
        if (free > 0) {
          const claimed = await claim(free);
          claimedCount = claimed.length;
          for (const one of claimed) {
            const flight: Promise<void> = deliverLogged(one).finally(() => {
              inFlight.delete(flight);
              wake?.();
            });
            inFlight.add(flight);
          }
        }
      } catch (error) {
        log.error({ err: error }, 'could not claim webhook deliveries; trying again');
      }
      if (!stopping && (claimedCount === 0 || inFlight.size >= options.concurrency)) await idle(options.pollIntervalMs);
    }
    await Promise.allSettled(inFlight);
  }

  return {
    start() {
      running ??= loop();
    },
    async stop() {
      stopping = true;
      stopped.abort();
      wake?.();
      await running;
    },
    async runOnce() {
      const claimed = await claim(options.concurrency);
      await Promise.all(claimed.map(deliverLogged));
      return claimed.length;
    },
  };
}
