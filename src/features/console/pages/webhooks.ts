/**
 * Webhook endpoints with their recent deliveries, each attempt's outcome, and a button to send a
 * delivery again (POST /api/v1/webhook-endpoints/{id}/deliveries/{event_id}/redeliver). Admins only,
 * as the API's webhook routes are. Endpoints are created through the API, which shows the secret.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { auditContextOf } from '../../../http/audit-context.ts';
import { AppError } from '../../../http/errors.ts';
import type { Api } from '../../../http/feature.ts';
import type { DeliveryRecord as Delivery } from '../../webhooks/deliveries-store.ts';
import type { WebhookService } from '../../webhooks/service.ts';
import type { EndpointRecord as Endpoint } from '../../webhooks/store.ts';
import { badge, when } from '../format.ts';
import { type Html, html } from '../html.ts';
import { csrfField, type Notice, sendPage } from '../layout.ts';

const ENDPOINTS_SHOWN = 50;
const DELIVERIES_SHOWN = 10;

const RedeliverParams = Type.Object({ id: Type.String({ pattern: '^we_[0-9a-z]{26}$' }), event_id: Type.String({ pattern: '^evt_[0-9a-z]{26}$' }) });
const RedeliverForm = Type.Object({ _csrf: Type.String({ maxLength: 200 }) });
const WebhooksQuery = Type.Object({ done: Type.Optional(Type.Literal('redelivered')) });

export function registerWebhooksPage(api: Api, deps: { webhooks: Pick<WebhookService, 'list' | 'deliveries' | 'redeliver'> }) {
  const { webhooks } = deps;

  async function showEndpoints(request: FastifyRequest, reply: FastifyReply, notice?: Notice, status = 200) {
    const context = auditContextOf(request);
    const endpoints = await webhooks.list(context, { limit: ENDPOINTS_SHOWN });
    const deliveries = await Promise.all(endpoints.map((e) => webhooks.deliveries(context, e.id, { limit: DELIVERIES_SHOWN })));
    const csrf = csrfField(request, reply);
    return sendPage(request, reply, {
      title: 'Webhooks',
      section: 'webhooks',
      notice,
      status,
      body: html`<p>Endpoints are subscribed through the API (<code>POST /api/v1/webhook-endpoints</code>), which shows each signing secret once.</p>
${endpoints.length === 0 ? html`<p>No endpoint is subscribed.</p>` : endpoints.map((e, i) => endpointSection(e, deliveries[i] ?? [], csrf))}`,
    });
  }

  const config = { tier: 'defense', permission: 'administer' } as const;
  api.get('/webhooks', { config, schema: { querystring: WebhooksQuery } }, async (request, reply) =>
    showEndpoints(request, reply, request.query.done ? { kind: 'status', text: 'The event is queued for delivery again.' } : undefined),
  );

  api.post('/webhooks/:id/deliveries/:event_id/redeliver', { config, schema: { params: RedeliverParams, body: RedeliverForm } }, async (request, reply) => {
    try {
      await webhooks.redeliver(auditContextOf(request), request.params.id, request.params.event_id);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'conflict') throw error;
      return showEndpoints(request, reply, { kind: 'alert', text: error.detail }, error.status);
    }
    return reply.redirect('/console/webhooks?done=redelivered', 303);
  });
}

function endpointSection(endpoint: Endpoint, deliveries: Delivery[], csrf: Html): Html {
  const id = `endpoint-${endpoint.id}`;
  return html`<section class="endpoint" aria-labelledby="${id}">
<h2 id="${id}"><code>${endpoint.url}</code> ${endpoint.enabled ? badge('enabled', 'cleared') : badge(`disabled (${endpoint.disabled_reason ?? 'manual'})`, 'denied')}</h2>
<dl>
${endpoint.description && html`<dt>Description</dt><dd>${endpoint.description}</dd>`}
<dt>Events</dt><dd>${endpoint.events.join(', ')}</dd>
<dt>Id</dt><dd><code>${endpoint.id}</code></dd>
${endpoint.failing_since && html`<dt>Failing since</dt><dd>${when(endpoint.failing_since)}</dd>`}
</dl>
<h3>Recent deliveries</h3>
${
  deliveries.length === 0
    ? html`<p>None yet.</p>`
    : html`<table>
<thead><tr><th scope="col">Event</th><th scope="col">State</th><th scope="col">Attempts</th><th scope="col">Last attempt</th><th scope="col">Next attempt</th><th scope="col">Action</th></tr></thead>
<tbody>${deliveries.map((d) => deliveryRow(endpoint, d, csrf))}</tbody>
</table>`
}
</section>`;
}

function deliveryRow(endpoint: Endpoint, delivery: Delivery, csrf: Html): Html {
  const last = delivery.history.at(-1);
  const lastWords =
    last && `${last.outcome}${last.status !== null ? ` (HTTP ${last.status})` : ''}, ${last.latency_ms} ms${last.error ? `: ${last.error}` : ''}`;
  const tone = { succeeded: 'cleared', failed: 'denied', cancelled: 'closed', pending: 'pending' }[delivery.state];
  return html`<tr>
<td><code>${delivery.event_type}</code><br><code class="help">${delivery.event_id}</code></td>
<td>${badge(delivery.state, tone)}</td>
<td>${delivery.attempts}</td>
<td>${last ? html`${when(last.attempted_at)}<br><span class="help">${lastWords}</span>` : '—'}</td>
<td>${when(delivery.next_attempt_at)}</td>
<td>${
    endpoint.enabled
      ? html`<form method="post" action="/console/webhooks/${endpoint.id}/deliveries/${delivery.event_id}/redeliver">${csrf}<button type="submit" aria-label="Redeliver ${delivery.event_type} event ${delivery.event_id}">Redeliver</button></form>`
      : html`<span class="help">Enable the endpoint to redeliver.</span>`
  }</td>
</tr>`;
}
