/**
 * The webhook service and, when this process delivers (WEBHOOK_WORKER), its delivery worker, built
 * from the configuration: both open secrets with the same keys and resolve names through the same
 * DNS, the real one unless a test brings its own (with its own clock).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { VERSION } from '../../version.ts';
import { loadSecretBox } from '../../webhooks/secret-box-keys.ts';
import { type Resolver, systemResolver } from './delivery/destination.ts';
import { createDeliveryWorker, type DeliveryWorker } from './delivery/worker.ts';
import { createWebhookService, type WebhookService } from './service.ts';

const USER_AGENT = `Gatehouse-Webhooks/${VERSION}`;

/** What a test may replace: DNS (to reach its own receiver) and, for the service, time. */
export type WebhookSeams = { resolve?: Resolver; clock?: () => Date };

export async function createWebhooks(
  { webhooks }: Config,
  db: Database,
  log: FastifyBaseLogger,
  seams: WebhookSeams = {},
): Promise<{ service: WebhookService; worker: DeliveryWorker | undefined }> {
  const resolve = seams.resolve ?? systemResolver;
  const policy = { allowList: webhooks.allowList, allowHttp: webhooks.allowHttp };
  const secrets = await loadSecretBox(webhooks.secretsKeys, db.operator);
  const service = createWebhookService({
    withTenant: db.withTenant,
    secrets,
    policy,
    resolve,
    resolveTimeoutMs: webhooks.deliveryTimeoutMs,
    ...(seams.clock && { clock: seams.clock }),
  });
  const worker = webhooks.worker
    ? createDeliveryWorker({
        withTenant: db.withTenant,
        secrets,
        policy,
        resolve,
        timeoutMs: webhooks.deliveryTimeoutMs,
        concurrency: webhooks.concurrency,
        pollIntervalMs: webhooks.pollIntervalMs,
        userAgent: USER_AGENT,
        log,
      })
    : undefined;
  return { service, worker };
}
