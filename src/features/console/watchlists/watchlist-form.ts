/**
 * A watchlist's own settings as a form (name, slug, description, threshold, active), for creating
 * one and for changing it: turned into the API's body and checked against the API's schema.
 */
import { type Static, type TSchema, Type } from 'typebox';
import { schemaProblems } from '../../../http/validation.ts';
import type { Watchlist } from '../../watchlists/model.ts';
import type { WatchlistInput } from '../../watchlists/service.ts';
import { refuseForm } from '../form-check.ts';
import { type Html, html } from '../html.ts';
import type { FieldLabels } from './watchlist-words.ts';

/** The lowest alert threshold a watchlist may have (the API's schema says the same). */
const MIN_THRESHOLD = 0.5;

export const WatchlistForm = Type.Object({
  _csrf: Type.String({ maxLength: 200 }),
  name: Type.String({ maxLength: 1000 }),
  slug: Type.String({ maxLength: 200 }),
  description: Type.Optional(Type.String({ maxLength: 5000 })),
  threshold: Type.Optional(Type.String({ maxLength: 20 })),
  active: Type.Optional(Type.Literal('on')),
});
export type WatchlistFormValues = Omit<Static<typeof WatchlistForm>, '_csrf'>;

export const WATCHLIST_LABELS: FieldLabels = { name: 'Name', slug: 'Slug', description: 'Description', threshold: 'Threshold', active: 'Active' };

export const NEW_WATCHLIST: WatchlistFormValues = { name: '', slug: '', active: 'on' };

/** The form's fields as the API's body (`schema`: the create or the update body's), refused with every problem. */
export async function watchlistBodyFrom(form: WatchlistFormValues, schema: TSchema): Promise<Required<WatchlistInput>> {
  const typed = form.threshold?.trim() ?? '';
  const threshold = typed === '' ? null : Number(typed);
  // Said in words here: the schema's union of a number and null would only say it matches neither.
  const outOfRange = threshold !== null && !(threshold >= MIN_THRESHOLD && threshold <= 1);
  const body: Required<WatchlistInput> = {
    slug: form.slug.trim(),
    name: form.name.trim(),
    description: form.description?.replace(/\r\n?/g, '\n').trim() || null,
    threshold: outOfRange ? null : threshold,
    active: form.active === 'on',
  };
  const problems = await schemaProblems(schema, body);
  if (outOfRange) problems.push({ pointer: '/threshold', detail: `${typed} is not a number from ${MIN_THRESHOLD} to 1`, in: 'body' });
  refuseForm('watchlist', problems);
  return body;
}

export function formValuesOf(watchlist: Watchlist): WatchlistFormValues {
  return {
    name: watchlist.name,
    slug: watchlist.slug,
    description: watchlist.description ?? '',
    threshold: watchlist.threshold === null ? '' : String(watchlist.threshold),
    ...(watchlist.active && { active: 'on' as const }),
  };
}

export function watchlistForm(options: { action: string; values: WatchlistFormValues; csrf: Html; submit: string }): Html {
  const v = options.values;
  return html`<form class="stack" method="post" action="${options.action}">
${options.csrf}
<p><label for="watchlist-name">Name</label> <input id="watchlist-name" name="name" required maxlength="200" size="40" value="${v.name}"></p>
<p><label for="watchlist-slug">Slug</label> <input id="watchlist-slug" name="slug" required maxlength="40" size="24" pattern="[a-z0-9][a-z0-9_\\-]{0,39}" value="${v.slug}" aria-describedby="watchlist-slug-help">
<span id="watchlist-slug-help" class="help">Lower-case letters, digits, - and _. Matches are labelled ORG:slug, e.g. ORG:do-not-admit.</span></p>
<p><label for="watchlist-description">Description</label> <textarea id="watchlist-description" name="description" rows="2" maxlength="2000">${v.description ?? ''}</textarea></p>
<p><label for="watchlist-threshold">Threshold</label> <input id="watchlist-threshold" name="threshold" inputmode="decimal" size="5" value="${v.threshold ?? ''}" aria-describedby="watchlist-threshold-help">
<span id="watchlist-threshold-help" class="help">Optional, 0.5 to 1: the score from which a match on its entries alerts. Empty: your organization’s match threshold.</span></p>
<p><input type="checkbox" id="watchlist-active" name="active"${v.active ? html` checked` : ''}> <label for="watchlist-active">Active: screened (an inactive watchlist is kept, and matches nothing)</label></p>
<p><button type="submit">${options.submit}</button></p>
</form>`;
}
