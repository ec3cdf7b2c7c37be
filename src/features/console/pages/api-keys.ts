/**
 * API keys, for admins: create one (the full key is on the answer page only, never in a URL or a
 * log), disable, enable, revoke. The same service as /api/v1/api-keys and `gatehouse keys`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { createApiKeyService, type StateChange } from '../../../auth/api-key-service.ts';
import type { KeyRecord } from '../../../auth/api-key-store.ts';
import type { WithTenant } from '../../../db/tenant.ts';
import { auditContextOf } from '../../../http/audit-context.ts';
import { AppError } from '../../../http/errors.ts';
import type { Api } from '../../../http/feature.ts';
import { text } from '../../../http/text-fields.ts';
import { actorLabel, badge, when } from '../format.ts';
import { type Html, html } from '../html.ts';
import { csrfField, type Notice, sendPage } from '../layout.ts';

const KEYS_SHOWN = 200;
const CHANGES: { change: StateChange; label: string; from: KeyRecord['state'][]; confirm?: string }[] = [
  { change: 'disable', label: 'Disable', from: ['active'] },
  { change: 'enable', label: 'Enable', from: ['disabled'] },
  { change: 'revoke', label: 'Revoke', from: ['active', 'disabled'], confirm: 'Revoke this key for good? Anything using it stops working.' },
];

const csrf = Type.String({ maxLength: 200 });
const CreateForm = Type.Object({
  _csrf: csrf,
  name: text(100, 'What the key is for.'),
  environment: Type.String({ enum: ['live', 'test'] }),
  admin: Type.Optional(Type.Literal('on')),
});
const ChangeParams = Type.Object({ id: Type.String({ pattern: '^key_[0-9a-z]{26}$' }), change: Type.String({ enum: CHANGES.map((c) => c.change) }) });
const ChangeForm = Type.Object({ _csrf: csrf });
const KeysQuery = Type.Object({ done: Type.Optional(Type.String({ enum: CHANGES.map((c) => c.change) })) });

export function registerApiKeysPage(api: Api, deps: { withTenant: WithTenant }) {
  const keys = createApiKeyService(deps.withTenant);
  const config = { tier: 'defense', permission: 'administer' } as const;

  async function showKeys(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: { notice?: Notice | undefined; created?: { record: KeyRecord; key: string }; status?: number } = {},
  ) {
    const list = await keys.list(auditContextOf(request), { limit: KEYS_SHOWN });
    const form = csrfField(request, reply);
    return sendPage(request, reply, {
      title: 'API keys',
      section: 'api-keys',
      notice: extra.notice,
      status: extra.status ?? 200,
      body: html`${extra.created && createdKey(extra.created)}
${createForm(form)}
<section aria-labelledby="keys-heading">
<h2 id="keys-heading">Keys (${list.length})</h2>
${
  list.length === 0
    ? html`<p>This organization has no API key.</p>`
    : html`<table>
<thead><tr><th scope="col">Name</th><th scope="col">Key starts</th><th scope="col">Kind</th><th scope="col">State</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Actions</th></tr></thead>
<tbody>${list.map((k) => keyRow(k, form))}</tbody>
</table>`
}
</section>`,
    });
  }

  api.get('/api-keys', { config, schema: { querystring: KeysQuery } }, async (request, reply) => {
    const done = request.query.done;
    return showKeys(request, reply, done ? { notice: { kind: 'status', text: `The key is ${done === 'enable' ? 'enabled' : `${done}d`}.` } } : {});
  });

  api.post('/api-keys', { config, schema: { body: CreateForm } }, async (request, reply) => {
    const name = request.body.name.trim();
    if (name === '')
      throw new AppError('validation_failed', 'Give the key a name that says what it is for.', { errors: [{ pointer: '/name', detail: 'must not be blank' }] });
    const created = await keys.create(auditContextOf(request), {
      name,
      environment: request.body.environment as 'live' | 'test',
      admin: request.body.admin === 'on',
    });
    // Answered here, not redirected: the key must not travel in a URL, and this page is its only showing.
    return showKeys(request, reply, { created, status: 201 });
  });

  api.post('/api-keys/:id/:change', { config, schema: { params: ChangeParams, body: ChangeForm } }, async (request, reply) => {
    const change = request.params.change as StateChange;
    try {
      await keys.change(auditContextOf(request), request.params.id, change);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'conflict') throw error;
      return showKeys(request, reply, { notice: { kind: 'alert', text: error.detail }, status: error.status });
    }
    return reply.redirect(`/console/api-keys?done=${change}`, 303);
  });
}

function createdKey({ record, key }: { record: KeyRecord; key: string }): Html {
  return html`<section class="created-key" aria-labelledby="created-heading">
<h2 id="created-heading">Key “${record.name}” created</h2>
<p><strong>Copy it now: it is shown this once.</strong> Gatehouse keeps only a hash of it.</p>
<p><label for="new-key">The new key</label> <input id="new-key" class="secret" readonly size="60" value="${key}"> <button type="button" data-copy="new-key" hidden>Copy</button></p>
</section>`;
}

function createForm(csrfInput: Html): Html {
  return html`<section aria-labelledby="create-heading">
<h2 id="create-heading">Create a key</h2>
<form class="stack" method="post" action="/console/api-keys">
${csrfInput}
<p><label for="key-name">Name</label> <input id="key-name" name="name" required maxlength="100" size="30" aria-describedby="key-name-help"> <span id="key-name-help" class="help">What it is for, e.g. “badge kiosk lobby”.</span></p>
<fieldset><legend>Environment</legend>
<p><input type="radio" id="environment-live" name="environment" value="live" checked> <label for="environment-live">Live (<code>gk_live_…</code>)</label></p>
<p><input type="radio" id="environment-test" name="environment" value="test"> <label for="environment-test">Sandbox (<code>gk_test_…</code>)</label></p>
</fieldset>
<p><input type="checkbox" id="key-admin" name="admin"> <label for="key-admin">Admin key: may manage keys and webhooks</label></p>
<p><button type="submit">Create the key</button></p>
</form>
</section>`;
}

function keyRow(key: KeyRecord, csrfInput: Html): Html {
  const tone = { active: 'cleared', disabled: 'escalated', revoked: 'denied' }[key.state];
  const actions = CHANGES.filter((c) => c.from.includes(key.state));
  return html`<tr>
<td>${key.name}</td>
<td><code>${key.display_prefix}</code></td>
<td>${key.environment === 'test' ? 'sandbox' : 'live'}${key.scope === 'admin' ? ', admin' : ''}</td>
<td>${badge(key.state, tone)}</td>
<td>${when(key.created_at)} <span class="help">by ${actorLabel(key.created_by)}</span></td>
<td>${when(key.last_used_at)}</td>
<td class="actions">${
    actions.length === 0
      ? '—'
      : actions.map(
          (a) =>
            html`<form method="post" action="/console/api-keys/${key.id}/${a.change}"${a.confirm ? html` data-confirm="${a.confirm}"` : ''}>${csrfInput}<button type="submit" aria-label="${a.label} key ${key.name} (${key.display_prefix})">${a.label}</button></form>`,
        )
  }</td>
</tr>`;
}
