/**
 * A watchlist entry as a form: the fields a person fills (lists one item a line, or separated by
 * commas where an item cannot hold one), turned into the body the API takes for an entry and
 * checked against the API's own schema before the service checks its facts; and an entry turned
 * back into the form's text, so editing it shows what it holds. Identifiers are written as in the
 * CSV file's identifiers column, `type:value[:country]`.
 */
import { type Static, Type } from 'typebox';
import type { FieldError } from '../../../http/errors.ts';
import { schemaProblems } from '../../../http/validation.ts';
import { identifierFromText, identifierText } from '../../watchlists/entry-csv.ts';
import type { EntryBody } from '../../watchlists/entry-input.ts';
import { EntryBody as EntryBodySchema } from '../../watchlists/entry-schemas.ts';
import { ENTRY_TYPES, SEVERITIES, type WatchlistEntry } from '../../watchlists/model.ts';
import { refuseForm } from '../form-check.ts';
import { type Html, html } from '../html.ts';
import type { FieldLabels } from './watchlist-words.ts';

/** Room for what the API allows and a little more: the API's schema says what is too long, by field. */
const field = (maxLength: number) => Type.Optional(Type.String({ maxLength }));

export const EntryForm = Type.Object({
  _csrf: Type.String({ maxLength: 200 }),
  name: Type.String({ maxLength: 1000 }),
  aliases: field(10_000),
  type: Type.String({ enum: [...ENTRY_TYPES] }),
  dates_of_birth: field(500),
  countries: field(500),
  identifiers: field(2000),
  external_id: field(500),
  reason: Type.String({ maxLength: 5000 }),
  severity: Type.String({ enum: [...SEVERITIES] }),
  /** The day it stops matching (from 00:00 UTC); only when adding: an entry's expiry is changed by the expiry form. */
  expires_on: Type.Optional(Type.String({ pattern: '^(\\d{4}-\\d{2}-\\d{2})?$' })),
});
export type EntryFormValues = Omit<Static<typeof EntryForm>, '_csrf'>;

export const ENTRY_LABELS: FieldLabels = {
  name: 'Name',
  aliases: 'Other names',
  type: 'Type',
  dates_of_birth: 'Dates of birth',
  countries: 'Countries',
  identifiers: 'Identifiers',
  external_id: 'Your reference',
  reason: 'Reason',
  severity: 'Severity',
  expires_at: 'Expires on',
};

const SEVERITY_WORDS: Record<(typeof SEVERITIES)[number], string> = {
  red: 'red: the most serious',
  orange: 'orange: serious',
  yellow: 'yellow: the least serious',
};

const lines = (text = '') =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
const items = (text = '') =>
  text
    .split(/[\r\n,]+/)
    .map((item) => item.trim())
    .filter(Boolean);

/** The instant a day chosen in a date field starts (00:00 UTC), or undefined for a day the calendar has not (02-31). */
export function startOfDay(day: string): string | undefined {
  const start = new Date(`${day}T00:00:00.000Z`);
  return !Number.isNaN(start.getTime()) && start.toISOString().startsWith(day) ? start.toISOString() : undefined;
}

export const notADay = (day: string): FieldError => ({ pointer: '/expires_at', detail: `${day} is not a day of the calendar`, in: 'body' });

/** The form's fields as the API's entry body; every problem (of form and of schema) refused at once. */
export async function entryBodyFrom(form: EntryFormValues): Promise<EntryBody> {
  const problems: FieldError[] = [];
  const identifiers = lines(form.identifiers).map((line, i) =>
    identifierFromText(line, (detail) => problems.push({ pointer: `/identifiers/${i}`, detail, in: 'body' })),
  );
  const body: EntryBody = {
    external_id: form.external_id?.trim() || null,
    type: form.type as EntryBody['type'],
    name: form.name,
    aliases: lines(form.aliases),
    dates_of_birth: items(form.dates_of_birth),
    countries: items(form.countries),
    identifiers,
    // A browser sends a textarea's line breaks as CRLF; the reason keeps them as LF, as the API's callers send them.
    reason: form.reason.replace(/\r\n?/g, '\n'),
    severity: form.severity as EntryBody['severity'],
  };
  if (form.expires_on) {
    const expiresAt = startOfDay(form.expires_on);
    if (expiresAt) body.expires_at = expiresAt;
    else problems.push(notADay(form.expires_on));
  }
  // An identifier that is not type:value is named once, by the line it is on.
  const unread = problems.map((p) => p.pointer);
  const schema = (await schemaProblems(EntryBodySchema, body)).filter((p) => !unread.some((u) => p.pointer.startsWith(u)));
  refuseForm('entry', [...problems, ...schema]);
  return body;
}

/** The form's text for an entry as it stands. */
export function formValuesOf(entry: WatchlistEntry): EntryFormValues {
  return {
    name: entry.names[0]?.full ?? '',
    aliases: entry.names
      .slice(1)
      .map((n) => n.full)
      .join('\n'),
    type: entry.type,
    dates_of_birth: entry.datesOfBirth.join(', '),
    countries: entry.countries.join(', '),
    identifiers: entry.identifiers.map((i) => identifierText(i as Parameters<typeof identifierText>[0])).join('\n'),
    external_id: entry.externalId ?? '',
    reason: entry.reason,
    severity: entry.severity,
  };
}

export const BLANK_ENTRY: EntryFormValues = { name: '', type: 'person', reason: '', severity: 'red' };

/** The form; `withExpiry` for a new entry (an entry's expiry is then changed by its own form). */
export function entryForm(options: { action: string; values: EntryFormValues; csrf: Html; submit: string; withExpiry: boolean }): Html {
  const v = options.values;
  const input = (name: keyof EntryFormValues, attributes: Html | string = '') =>
    html`<input id="entry-${name}" name="${name}" value="${v[name] ?? ''}"${attributes}>`;
  const textarea = (name: keyof EntryFormValues, rows: number, help: string, attributes: Html | string = '') =>
    html`<textarea id="entry-${name}" name="${name}" rows="${rows}" aria-describedby="entry-${name}-help"${attributes}>${v[name] ?? ''}</textarea>
<span id="entry-${name}-help" class="help">${help}</span>`;
  return html`<form class="stack" method="post" action="${options.action}">
${options.csrf}
<p><label for="entry-name">Name</label> ${input('name', html` required maxlength="200" size="40"`)}</p>
<p><label for="entry-aliases">Other names</label> ${textarea('aliases', 3, 'One a line. Each is screened as strongly as the name.')}</p>
<p><label for="entry-type">Type</label> <select id="entry-type" name="type">${ENTRY_TYPES.map((t) => html`<option value="${t}"${v.type === t ? html` selected` : ''}>${t}</option>`)}</select></p>
<p><label for="entry-dates_of_birth">Dates of birth</label> ${input('dates_of_birth', html` size="30" aria-describedby="entry-dates_of_birth-help"`)}
<span id="entry-dates_of_birth-help" class="help">A person’s only, separated by commas: 1984-06-02, 1984-06 or 1984.</span></p>
<p><label for="entry-countries">Countries</label> ${input('countries', html` size="30" aria-describedby="entry-countries-help"`)}
<span id="entry-countries-help" class="help">Two-letter codes separated by commas, e.g. US, MX.</span></p>
<p><label for="entry-identifiers">Identifiers</label> ${textarea('identifiers', 2, 'One a line, as type:value or type:value:country, e.g. passport:X1234567:IR (as in the CSV file).')}</p>
<p><label for="entry-external_id">Your reference</label> ${input('external_id', html` maxlength="128" size="20" aria-describedby="entry-external_id-help"`)}
<span id="entry-external_id-help" class="help">Optional: your own key for it (an HR or case number). An import matches entries on it.</span></p>
<p><label for="entry-reason">Reason</label> ${textarea('reason', 3, 'Why the entry is on the watchlist: shown with every match, in cases and at the door.', html` required maxlength="2000"`)}</p>
<fieldset><legend>Severity</legend>
${SEVERITIES.map((s) => html`<p><input type="radio" id="entry-severity-${s}" name="severity" value="${s}"${v.severity === s ? html` checked` : ''}> <label for="entry-severity-${s}">${SEVERITY_WORDS[s]}</label></p>`)}
<p class="help">What a match does at the door (deny, hold, open a case) is set by your organization’s adjudication rules.</p>
</fieldset>
${
  options.withExpiry &&
  html`<p><label for="entry-expires_on">Expires on</label> ${input('expires_on', html` type="date" aria-describedby="entry-expires_on-help"`)}
<span id="entry-expires_on-help" class="help">Optional: from 00:00 UTC that day it matches nothing. Leave empty for no expiry.</span></p>`
}
<p><button type="submit">${options.submit}</button></p>
</form>`;
}
