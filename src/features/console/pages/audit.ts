/**
 * The audit log, newest first, with the filters of GET /api/v1/audit/export, and whether the
 * organization's hash chain holds. Admins only, as the export is, and each visit is recorded as
 * the export is. The chain is re-walked from its first event on each visit while it is short
 * enough to take about a second; past that, on request.
 */
import { Type } from 'typebox';
import { type EventFilter, headSeq, latestEvents } from '../../../audit/audit-store.ts';
import { type VerifyResult, verifyChain } from '../../../audit/audit-verifier.ts';
import type { EventKind } from '../../../audit/read-actions.ts';
import type { ReadTrail } from '../../../audit/read-trail.ts';
import type { Database } from '../../../db/database.ts';
import { auditContextOf } from '../../../http/audit-context.ts';
import type { Api } from '../../../http/feature.ts';
import { actorLabel, badge, when } from '../format.ts';
import { type Html, href, html } from '../html.ts';
import { sendPage } from '../layout.ts';

const PAGE_SIZE = 50;
/** About a second of verification on the embedded database (60 µs an event, measured). */
const VERIFY_ON_LOAD_MAX_EVENTS = 20_000;

const date = Type.String({ pattern: '^(\\d{4}-\\d{2}-\\d{2})?$' });
const AuditQuery = Type.Object({
  action: Type.Optional(Type.String({ maxLength: 100 })),
  actor: Type.Optional(Type.String({ maxLength: 200 })),
  request_id: Type.Optional(Type.String({ maxLength: 128 })),
  kind: Type.Optional(Type.String({ enum: ['', 'read', 'write'] })),
  from: Type.Optional(date),
  to: Type.Optional(date),
  before: Type.Optional(Type.Integer({ minimum: 1 })),
  verify: Type.Optional(Type.Literal('1')),
});

type Filters = { action?: string; actor?: string; request_id?: string; kind?: string; from?: string; to?: string };

export function registerAuditPage(api: Api, deps: { db: Database; reads: ReadTrail }) {
  api.get(
    '/audit',
    { config: { tier: 'enterprise', permission: 'administer', auditRead: { action: 'audit.viewed' } }, schema: { querystring: AuditQuery } },
    async (request, reply) => {
      const { before, verify, ...raw } = request.query;
      const filters: Filters = Object.fromEntries(
        Object.entries(raw)
          .map(([k, v]) => [k, typeof v === 'string' ? v.trim() : v])
          .filter(([, v]) => v),
      );
      const filter: EventFilter = {
        ...(filters.action && { action: filters.action }),
        ...(filters.actor && { actor: filters.actor }),
        ...(filters.request_id && { requestId: filters.request_id }),
        ...(filters.kind && { kind: filters.kind as EventKind }),
        ...(filters.from && { from: new Date(`${filters.from}T00:00:00Z`) }),
        // "to" names the last day shown: events before the next midnight.
        ...(filters.to && { to: new Date(Date.parse(`${filters.to}T00:00:00Z`) + 86_400_000) }),
      };
      const { actor } = auditContextOf(request);
      await deps.reads.flush(actor.organizationId);
      const [events, length] = await deps.db.withTenant(
        actor,
        async (trx) => [await latestEvents(trx, filter, before, PAGE_SIZE + 1), await headSeq(trx)] as const,
      );
      const chain = verify === '1' || length <= VERIFY_ON_LOAD_MAX_EVENTS ? await verifyChain(deps.db, actor.organizationId) : undefined;
      const page = events.slice(0, PAGE_SIZE);
      const older = events.length > PAGE_SIZE ? page.at(-1)?.seq : undefined;
      return sendPage(request, reply, {
        title: 'Audit log',
        section: 'audit',
        body: html`${chainStatus(chain, length, filters)}
${filterForm(filters)}
${
  page.length === 0
    ? html`<p>No event matches these filters.</p>`
    : html`<table class="audit">
<caption class="visually-hidden">Audit events, newest first</caption>
<thead><tr><th scope="col">#</th><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Details</th></tr></thead>
<tbody>${page.map(
        ({ seq, fields: e, hash }) =>
          html`<tr><td><abbr title="hash ${hash.toString('hex')}">${seq}</abbr></td><td>${when(e.occurred_at)}</td><td>${actorLabel(`${e.actor.type}:${e.actor.id}`)}${e.actor.role && html` <span class="help">(${e.actor.role})</span>`}</td><td><code>${e.action}</code>${e.outcome === 'failure' && html` ${badge('failure', 'denied')}`}${e.target.id && html`<br><span class="help">${e.target.type}</span> <code>${e.target.id}</code>`}</td><td class="details">${detailsText(e.details)}${e.request_id && html`<br><span class="help">request <code>${e.request_id}</code></span>`}</td></tr>`,
      )}</tbody>
</table>`
}
<nav class="pages" aria-label="Audit log pages">
${before !== undefined && html`<a href="${href('/console/audit', filters)}">Newest events</a>`}
${older !== undefined && html`<a href="${href('/console/audit', { ...filters, before: older })}" rel="next">Older events</a>`}
</nav>`,
      });
    },
  );
}

/** An event's details as `key: value` pairs: nested values stay JSON. */
const detailsText = (details: Record<string, unknown>) =>
  Object.entries(details)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('; ');

function chainStatus(chain: VerifyResult | undefined, length: number, filters: Filters): Html {
  if (!chain) {
    return html`<div class="notice" role="status"><p>The chain holds ${length} events; verifying it walks every one. <a href="${href('/console/audit', { ...filters, verify: '1' })}">Verify the chain now</a></p></div>`;
  }
  if (chain.intact) {
    return html`<div class="notice notice-status chain-intact" role="status"><p>${badge('intact', 'cleared')} The hash chain holds: all ${chain.events} events were re-checked from the first, just now.</p></div>`;
  }
  return html`<div class="notice notice-alert" role="alert"><p>${badge('broken', 'denied')} The hash chain is broken at event ${chain.first_break?.seq}: ${chain.first_break?.reason}. Events from there on may have been changed, removed or reordered. Tell your security officer.</p></div>`;
}

const KINDS = [
  ['', 'All events'],
  ['read', 'Reads of personal data'],
  ['write', 'Everything but reads'],
] as const;

function filterForm(filters: Filters): Html {
  const input = (name: keyof Filters, label: string, attributes: Html | string = '') =>
    html`<p><label for="${name}">${label}</label> <input id="${name}" name="${name}" value="${filters[name] ?? ''}"${attributes}></p>`;
  return html`<form class="filters" method="get" action="/console/audit" role="search" aria-label="Filter the audit log">
${input('action', 'Action', html` size="24" placeholder="e.g. api_key.revoked"`)}
${input('actor', 'Actor', html` size="24" placeholder="an email or key id"`)}
${input('request_id', 'Request id', html` size="24"`)}
<p><label for="kind">Kind</label>
<select id="kind" name="kind">${KINDS.map(([value, label]) => html`<option value="${value}"${(filters.kind ?? '') === value ? html` selected` : ''}>${label}</option>`)}</select></p>
${input('from', 'From', html` type="date"`)}
${input('to', 'To', html` type="date"`)}
<p><button type="submit">Filter</button> <a href="/console/audit">Clear filters</a></p>
</form>`;
}
