/**
 * A stored ownership determination for a person: what was decided, on what date, who asked, whether
 * the record still hashes to what was stored, and the graph drawn. The graph is served as its own
 * SVG image (`…/graph.svg`) and shown with <img>: an image cannot run script, and the page's
 * Content-Security-Policy (img-src 'self') needs no exception for inline markup.
 */

import { auditContextOf } from '../../../http/audit-context.ts';
import type { Api } from '../../../http/feature.ts';
import { presentStoredCheck } from '../../ownership/check-present.ts';
import { CheckParams } from '../../ownership/check-schemas.ts';
import { layoutOwnershipGraph } from '../../ownership/drawing/layout-ownership-graph.ts';
import { ownershipGraphSvg } from '../../ownership/drawing/ownership-graph-svg.ts';
import type { OwnershipService } from '../../ownership/service.ts';
import { badge, when } from '../format.ts';
import { html } from '../html.ts';
import { sendPage } from '../layout.ts';

const READ = { tier: 'enterprise', permission: 'read' } as const;
const VIEWED = { action: 'ownership_check.viewed', target: 'ownership_check' } as const;

const STATUS_WORDS = {
  blocked: 'Blocked under OFAC’s 50 Percent Rule',
  restricted: 'Restricted under the BIS Affiliates Rule',
  indeterminate: 'Not determinate: unknown stakes keep a rule from deciding',
  clear: 'Neither rule reaches the target',
} as const;
const STATUS_TONE = { blocked: 'denied', restricted: 'escalated', indeterminate: 'pending', clear: 'cleared' } as const;

export function registerOwnershipPages(api: Api, { ownership }: { ownership: Pick<OwnershipService, 'get'> }) {
  api.get('/ownership/:id', { config: { ...READ, auditRead: VIEWED }, schema: { params: CheckParams } }, async (request, reply) => {
    const check = presentStoredCheck(await ownership.get(auditContextOf(request), request.params.id));
    const link = (id: string | null) => id && html`<a href="/console/ownership/${id}">${id}</a>`;
    return sendPage(request, reply, {
      title: `Ownership: ${check.target.name ?? check.target.id}`,
      body: html`<p>${badge(check.status, STATUS_TONE[check.status])} <strong>${STATUS_WORDS[check.status]}</strong></p>
<dl class="facts">
<dt>Target</dt><dd>${check.target.name ?? 'unnamed'} (<code>${check.target.id}</code>)</dd>
<dt>Decided for</dt><dd>${check.as_of}</dd>
<dt>Checked</dt><dd>${when(check.checked_at)} by <code>${check.asked_by.type}:${check.asked_by.id}</code></dd>
<dt>Record SHA-256</dt><dd><code>${check.record_sha256}</code> ${check.record_sha256_verified ? badge('verified', 'cleared') : badge('does not match the record', 'denied')}</dd>
${check.supersedes && html`<dt>Re-evaluates</dt><dd>${link(check.supersedes)}</dd>`}
${check.superseded_by && html`<dt>Superseded by</dt><dd>${link(check.superseded_by)}</dd>`}
</dl>
<figure class="ownership-graph">
<img src="/console/ownership/${check.id}/graph.svg" alt="The ownership graph: ${check.request.entities.length} parties and ${check.request.ownerships.length} stakes, the target at the bottom, owners above, the deciding paths highlighted.">
<figcaption>Parties that bear on neither verdict are collapsed into counted groups. The evidence PDF (GET /api/v1/ownership/checks/${check.id}/evidence) draws the same graph.</figcaption>
</figure>`,
    });
  });

  api.get('/ownership/:id/graph.svg', { config: { ...READ, auditRead: VIEWED }, schema: { params: CheckParams } }, async (request, reply) => {
    const { record } = await ownership.get(auditContextOf(request), request.params.id);
    return reply
      .type('image/svg+xml; charset=utf-8')
      .header('cache-control', 'private, no-store')
      .send(ownershipGraphSvg(layoutOwnershipGraph(record.request, record.answer)));
  });
}
