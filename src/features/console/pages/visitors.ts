/**
 * Visitors on site now: the roll-call a guard prints in an evacuation, by site, and the visitors
 * waiting at the door on a case. The same sessions GET /api/v1/sessions?on_site=true lists, each
 * with the visitor's citizenship and the country flags their screening raised (and, for those
 * waiting, the country rule that holds them), so a guard sees who is a deemed-export concern.
 * People who may operate the door check a visitor out here, as POST /api/v1/sessions/{id}/update
 * does; those waiting are released or denied on their case.
 */
import { Type } from 'typebox';
import { auditContextOf } from '../../../http/audit-context.ts';
import { recordShown } from '../../../http/audited-reads.ts';
import type { Api } from '../../../http/feature.ts';
import { allows } from '../../../http/permissions.ts';
import { describeHold } from '../../../screening/country-sanctions/holds.ts';
import type { ScreeningService } from '../../screenings/service.ts';
import type { ScreeningSummary as Summary } from '../../screenings/store.ts';
import type { SessionService } from '../../visitor-sessions/service.ts';
import type { SessionRow as Session } from '../../visitor-sessions/session-store.ts';
import { badge, when } from '../format.ts';
import { type Html, href, html } from '../html.ts';
import { csrfField, sendPage, type Viewer } from '../layout.ts';
import { flagsLine } from '../views/holds.ts';

/** More than a roll-call can sensibly print; the page says so when a site has more. */
const ROLL_CALL_LIMIT = 2_000;

/** What the roll-call shows of each visitor's screening, by screening id. */
type Screened = Map<string, Summary>;

const VisitorsQuery = Type.Object({ site: Type.Optional(Type.String({ maxLength: 200 })), done: Type.Optional(Type.Literal('checked_out')) });
const SessionParams = Type.Object({ id: Type.String({ pattern: '^ses_[0-9a-z]{26}$' }) });
const CheckOutForm = Type.Object({ _csrf: Type.String({ maxLength: 200 }), site: Type.Optional(Type.String({ maxLength: 200 })) });
const CHECK_OUT = { tier: 'defense', permission: 'operate' } as const;

export function registerVisitorsPage(
  api: Api,
  deps: { visitorSessions: Pick<SessionService, 'list' | 'update'>; screenings: Pick<ScreeningService, 'summariesOf'> },
) {
  api.get(
    '/visitors',
    {
      config: { tier: 'defense', permission: 'read', auditRead: { action: 'visitor_session.listed', target: 'visitor_session', list: true } },
      schema: { querystring: VisitorsQuery },
    },
    async (request, reply) => {
      const sessions = deps.visitorSessions;
      const context = auditContextOf(request);
      const site = request.query.site || undefined;
      const filter = site === undefined ? {} : { site };
      const onSite = await sessions.list(context, { ...filter, onSite: true }, undefined, ROLL_CALL_LIMIT + 1);
      const waiting = await sessions.list(context, { ...filter, onSite: false, statuses: ['pending_review', 'escalated'] }, undefined, 200);
      const shown = [...onSite.slice(0, ROLL_CALL_LIMIT), ...waiting];
      recordShown(
        request,
        shown.map((s) => s.id),
      );
      // Country flags are kept in each visitor's screening, not in the session: read in one query.
      const screened: Screened = new Map((await deps.screenings.summariesOf(context, [...new Set(shown.map((s) => s.screening_id))])).map((x) => [x.id, x]));
      const sites = [...new Set([...onSite, ...waiting].map((s) => s.site))].sort();
      const viewer = request.viewer as Viewer;
      const checkOut = allows(CHECK_OUT, viewer.tier, viewer.role) ? { csrf: csrfField(request, reply), site } : undefined;
      const now = new Date();
      const bySite = new Map<string, Session[]>();
      for (const s of onSite.slice(0, ROLL_CALL_LIMIT)) bySite.set(s.site, [...(bySite.get(s.site) ?? []), s]);
      return sendPage(request, reply, {
        title: site ? `Visitors on site now: ${site}` : 'Visitors on site now',
        section: 'visitors',
        notice: request.query.done === 'checked_out' ? { kind: 'status', text: 'The visitor is checked out.' } : undefined,
        body: html`<form class="filters no-print" method="get" action="/console/visitors" aria-label="Choose a site">
<p><label for="site">Site</label>
<select id="site" name="site"><option value="">All sites</option>${sites.map((s) => html`<option value="${s}"${s === site ? html` selected` : ''}>${s}</option>`)}</select>
<button type="submit">Show</button></p>
</form>
<p class="no-print"><button type="button" data-print hidden>Print the roll-call</button></p>
<p class="summary">${onSite.length > ROLL_CALL_LIMIT ? `More than ${ROLL_CALL_LIMIT} visitors are on site; the first ${ROLL_CALL_LIMIT} are listed. Choose a site.` : `${onSite.length} visitor${onSite.length === 1 ? '' : 's'} on site`} as of ${when(now)}.</p>
${[...bySite].map(([name, people]) => rollCall(name, people, screened, checkOut))}
<section class="no-print" aria-labelledby="waiting-heading">
<h2 id="waiting-heading">Waiting at the door (${waiting.length})</h2>
${waiting.length === 0 ? html`<p>Nobody is waiting on a decision.</p>` : html`<ul>${waiting.map((s) => waitingItem(s, screened.get(s.screening_id)))}</ul>`}
</section>`,
      });
    },
  );

  api.post('/visitors/:id/check-out', { config: { ...CHECK_OUT }, schema: { params: SessionParams, body: CheckOutForm } }, async (request, reply) => {
    await deps.visitorSessions.update(auditContextOf(request), request.params.id, { status: 'checked_out' });
    const site = request.body.site ? `&site=${encodeURIComponent(request.body.site)}` : '';
    return reply.redirect(`/console/visitors?done=checked_out${site}`, 303);
  });
}

/** A check-out button per visitor, for people who may operate the door (not viewers). */
type CheckOut = { csrf: Html; site: string | undefined } | undefined;

/** The visitor's citizenship as checked in, or else the nationality their screening (a reused prescreen) was given. */
const citizenshipOf = (s: Session, summary: Summary | undefined) => s.visitor.citizenship ?? summary?.input.nationality ?? '';

function rollCall(site: string, people: Session[], screened: Screened, checkOut: CheckOut): Html {
  const id = `site-${encodeURIComponent(site).replace(/[^A-Za-z0-9-]/g, '_')}`;
  return html`<section class="roll-call" aria-labelledby="${id}">
<h2 id="${id}">${site} (${people.length})</h2>
<table>
<thead><tr><th scope="col">Visitor</th><th scope="col">Citizenship</th><th scope="col">Country flags</th><th scope="col">Company</th><th scope="col">Host</th><th scope="col">Badge</th><th scope="col">Escort</th><th scope="col">Checked in</th><th scope="col">Leaves</th><th scope="col">Status</th>${checkOut && html`<th scope="col" class="no-print">Leaving</th>`}<th scope="col" class="print-only">Accounted for</th></tr></thead>
<tbody>${people.map(
    (s) =>
      html`<tr><td>${s.visitor.name}</td><td>${citizenshipOf(s, screened.get(s.screening_id))}</td><td>${flagsLine(screened.get(s.screening_id)?.country_flags)}</td><td>${s.visitor.company ?? ''}</td><td>${s.host?.name ?? ''}</td><td>${s.badge_number ?? ''}</td><td>${s.escort_required ? 'required' : 'no'}</td><td>${when(s.checked_in_at)}</td><td>${s.expected_departure_at ? when(s.expected_departure_at) : ''}</td><td>${badge(s.status.replace('_', ' '), s.status)}</td>${checkOut && checkOutCell(s, checkOut)}<td class="print-only">☐</td></tr>`,
  )}</tbody>
</table>
</section>`;
}

function checkOutCell(s: Session, checkOut: NonNullable<CheckOut>): Html {
  return html`<td class="no-print"><form method="post" action="/console/visitors/${s.id}/check-out">${checkOut.csrf}${checkOut.site && html`<input type="hidden" name="site" value="${checkOut.site}">`}
<button type="submit" aria-label="Check out ${s.visitor.name}">Check out</button></form></td>`;
}

function waitingItem(s: Session, summary: Summary | undefined): Html {
  const who = html`${s.visitor.name}${s.visitor.company && html` (${s.visitor.company})`}`;
  const citizenship = citizenshipOf(s, summary);
  const holds = summary?.holds ?? [];
  return html`<li>${who} at ${s.site}: ${badge(s.status.replace('_', ' '), s.status)} since ${when(s.created_at)}${s.case_id && html`, <a href="${href(`/console/cases/${s.case_id}`)}">open the case</a>`}
<br><span class="help">Citizenship ${citizenship || 'not given'}; country flags ${flagsLine(summary?.country_flags)}${holds.length > 0 && html`; held for the country rule ${holds.map(describeHold).join('; ')}`}</span></li>`;
}
