/**
 * One case as the console shows it: where it stands (status, priority and why, SLA), the subject
 * as screened (or the ownership determination it is about), the decision form (or why this person cannot decide now), the visitors waiting on
 * it, the matches beside their list entries, and the history.
 */
import type { ListSnapshot } from '../../../lists/catalog.ts';
import type { CaseDetail } from '../../adjudication/present.ts';
import type { PresentedScreening as Screening } from '../../screenings/present.ts';
import type { SessionRow as Session } from '../../visitor-sessions/session-store.ts';
import { actorLabel, badge, fromNow, score, subjectLine, when } from '../format.ts';
import { type Html, html } from '../html.ts';
import type { Viewer } from '../layout.ts';
import { determinationSection, determinationTarget, type PresentedDetermination } from './determination.ts';
import { holdsSection } from './holds.ts';
import { matchesSection } from './matches.ts';

export type CaseView = {
  detail: CaseDetail;
  viewer: Viewer;
  /** The dispositions the case's status allows. */
  allowed: readonly string[];
  sessions: Session[];
  snapshot: ListSnapshot | undefined;
  csrf: Html;
  now: Date;
  /** What was typed into the form, when it is shown again with a problem. */
  form?: { disposition?: string; reason?: string };
};

const DISPOSITION_WORDS: Record<string, string> = {
  CLEARED: 'Cleared: not the listed party',
  ESCALATED: 'Escalated: needs a senior decision',
  DENIED: 'Denied: the listed party, or too close to admit',
};

const ACTION_WORDS: Record<string, string> = {
  opened: 'Opened',
  decision_pending: 'Decision proposed, waiting for a second reviewer',
  disposition_applied: 'Decided',
  assigned: 'Assigned',
  note: 'Note',
  reopened: 'Reopened by a re-screen or a changed ownership determination',
  determination_changed: 'Its ownership determination was re-evaluated',
};

export const caseTitle = (detail: CaseDetail) => {
  const determination = detail.determination as PresentedDetermination | null;
  return `Case: ${determination ? determinationTarget(determination) : subjectLine((detail.screening as Screening | null)?.input)}`;
};

export function caseBody(view: CaseView): Html {
  const { detail } = view;
  const screening = detail.screening as Screening | null;
  const determination = detail.determination as PresentedDetermination | null;
  const missing = html`<p>The ${detail.ownership_check_id ? 'ownership determination' : 'screening'} of this case is missing.</p>`;
  return html`${summary(view)}
${screening && holdsSection(screening)}
${decisionSection(view)}
${view.sessions.length > 0 && visitorsSection(view.sessions)}
${screening ? subjectSection(detail, screening) : determination ? determinationSection(determination) : missing}
${screening && matchesSection(screening, detail.match_decisions, view.snapshot)}
${historySection(detail)}`;
}

function summary({ detail, now }: CaseView): Html {
  return html`<dl class="case-summary">
<dt>Status</dt><dd>${badge(detail.status)}</dd>
<dt>Priority</dt><dd>${badge(detail.priority)} <span class="help">${detail.priority_reasons.join('; ')}</span></dd>
<dt>Score</dt><dd>${detail.lists.length > 0 ? `${score(detail.score)} on ${detail.lists.join(', ')}` : detail.ownership_check_id ? 'no list designation' : 'no name match'}</dd>
<dt>SLA</dt><dd${detail.overdue ? html` class="overdue"` : ''}>${detail.overdue ? html`<strong class="overdue-text">Overdue</strong> since ` : 'Due '}${when(detail.sla_due_at)} (${fromNow(detail.sla_due_at, now)})</dd>
<dt>Source</dt><dd>${detail.source}</dd>
<dt>Opened</dt><dd>${when(detail.created_at)}</dd>
<dt>Assignee</dt><dd>${detail.assignee ? actorLabel(detail.assignee) : 'nobody'}</dd>
<dt>Evidence</dt><dd><a href="/console/cases/${detail.id}/evidence" download>Download the evidence PDF</a></dd>
</dl>`;
}

function decisionSection(view: CaseView): Html {
  const { detail, viewer } = view;
  const pending = detail.pending_decision;
  const me = `user:${viewer.email}`;
  // The viewer answers for a proposal they made, or made with a key they created: they cannot confirm it.
  const answerable = pending && (pending.actor === me || pending.person === me);
  const proposer = pending && (pending.actor === me ? 'you' : actorLabel(pending.actor) + (pending.person === me ? ', a key you created,' : ''));
  const pendingNote =
    pending &&
    html`<div class="pending" role="note"><p>${badge('pending', 'pending')} <strong>${pending.disposition}</strong> proposed by ${proposer} ${when(pending.at)}: “${pending.reason}”</p>
<p>It needs a second person (${pending.requires_second_reviewer}).
${answerable ? 'Another person must confirm it.' : html`To confirm it, choose <strong>${pending.disposition}</strong> below and give your own reason; another choice replaces the proposal.`}</p></div>`;
  let form: Html | string;
  if (view.allowed.length === 0)
    form = detail.ownership_check_id
      ? html`<p>This case is closed (${detail.status}). Only a re-evaluation after a list change that changes its determination reopens it.</p>`
      : html`<p>This case is closed (${detail.status}). Only a re-screen that finds a new or changed list entry reopens it.</p>`;
  else if (viewer.role === 'viewer') form = html`<p>You have the viewer role: you can look at cases but not decide them.</p>`;
  else form = dispositionForm(view, pending && !answerable ? pending.disposition : undefined);
  return html`<section aria-labelledby="decision-heading">
<h2 id="decision-heading">Decision</h2>
${pendingNote}
${form}
</section>`;
}

function dispositionForm(view: CaseView, toConfirm: string | undefined): Html {
  const chosen = view.form?.disposition ?? toConfirm;
  return html`<form class="stack" method="post" action="/console/cases/${view.detail.id}/disposition">
${view.csrf}
<fieldset>
<legend>Disposition</legend>
${view.allowed.map(
  (d) => html`<p><input type="radio" id="disposition-${d}" name="disposition" value="${d}" required${d === chosen ? html` checked` : ''}>
<label for="disposition-${d}">${DISPOSITION_WORDS[d] ?? d}</label></p>`,
)}
</fieldset>
<p><label for="reason">Reason</label>
<textarea id="reason" name="reason" rows="4" maxlength="2000" required aria-describedby="reason-help">${view.form?.reason ?? ''}</textarea>
<span id="reason-help" class="help">Why, in words an auditor will read. It is kept in the case history and the evidence.</span></p>
<p><button type="submit">Apply the decision</button></p>
</form>`;
}

function visitorsSection(sessions: Session[]): Html {
  return html`<section aria-labelledby="visitors-heading">
<h2 id="visitors-heading">Visitors on this case</h2>
<ul>${sessions.map((s) => html`<li>${s.visitor.name}${s.visitor.company && html` (${s.visitor.company})`} at ${s.site}: ${badge(s.status.replace('_', ' '), s.status)}${s.checked_in_at && html`, checked in ${when(s.checked_in_at)}`}</li>`)}</ul>
</section>`;
}

function subjectSection(detail: CaseDetail, screening: Screening): Html {
  const input = screening.input as Record<string, unknown>;
  const text = (value: unknown): string => (Array.isArray(value) ? value.map(text).join('; ') : typeof value === 'string' ? value : identifier(value));
  // An identifier as screened ({type, value, country}); records made before identifiers were typed hold bare values.
  const identifier = (value: unknown) => {
    const { type, value: number, country } = (value ?? {}) as { type?: unknown; value?: unknown; country?: unknown };
    return typeof type === 'string' && typeof number === 'string' ? `${type} ${number}${typeof country === 'string' ? ` (${country})` : ''}` : '';
  };
  const fields: [string, string][] = [
    ['Name', text(input.subject)],
    ['Company', text(input.company)],
    ['Type', text(input.type)],
    ['Date of birth', text(input.date_of_birth)],
    ['Nationality', text(input.nationality)],
    ['Country', text(input.country)],
    ['Address', text(input.address)],
    ['Other names', text(input.aliases)],
    ['Identifiers', text(input.identifiers)],
    ['Your reference', text(input.reference)],
  ];
  return html`<section aria-labelledby="subject-heading">
<h2 id="subject-heading">Subject as screened</h2>
<dl>${fields.filter(([, v]) => v !== '').map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}
<dt>Screening</dt><dd><code>${screening.id}</code>, ${when(screening.created_at)}, against ${screening.list_versions.map((v) => v.list).join(', ')} (rules version ${detail.rules_version})</dd>
<dt>List freshness</dt><dd>${listFreshnessWords(screening)}</dd></dl>
</section>`;
}

/** Whether the lists were current when the subject was screened, as the screening recorded it. */
function listFreshnessWords(screening: Screening): string {
  if (screening.lists_stale === undefined) return 'not recorded (screened before Gatehouse recorded it)';
  const stale = screening.stale_lists ?? [];
  if (stale.length === 0) return 'every list was within its maximum age';
  return stale
    .map((l) => `${l.list} was past its maximum age (last confirmed current ${Math.floor(l.age_hours)} hours before, ${l.max_age_hours} allowed)`)
    .join('; ');
}

/** Who acted, and for a proposal made with a key, the person who answers for it. */
function who(event: CaseDetail['history'][number]): string {
  const person = (event.details as { proposed_by_person?: string | null }).proposed_by_person;
  return person && person !== event.actor ? `${actorLabel(event.actor)}, created by ${actorLabel(person)}` : actorLabel(event.actor);
}

function historySection(detail: CaseDetail): Html {
  return html`<section aria-labelledby="history-heading">
<h2 id="history-heading">History</h2>
<table>
<thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Status</th><th scope="col">Reason</th></tr></thead>
<tbody>${detail.history.map(
    (e) =>
      html`<tr><td>${when(e.at)}</td><td>${who(e)}</td><td>${ACTION_WORDS[e.action] ?? e.action}${e.disposition && html`: ${e.disposition}`}</td><td>${e.from_status && e.from_status !== e.to_status ? `${e.from_status} → ${e.to_status}` : (e.to_status ?? '')}</td><td>${e.reason ?? ''}</td></tr>`,
  )}</tbody>
</table>
</section>`;
}
