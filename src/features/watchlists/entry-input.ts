/**
 * A watchlist entry as callers send it (one entry, a PATCH merged onto one, or a row of an
 * import, JSON or CSV) checked and reduced to its facts: every problem pushed with its pointer
 * (`/entries/17/countries/0`), nothing thrown here, so an import reports every bad row at once.
 * The checks a schema cannot make: names with something to screen, dates that exist and are not
 * in the future, country codes that exist, identifiers that fit the entry's type.
 */
import type { IdentifierBody } from '../../http/identifier-fields.ts';
import { checkIdentifiers } from '../../http/identifier-fields.ts';
import type { InputChecker } from '../../http/input-checker.ts';
import { entryFactsSha256 } from './entry-facts.ts';
import type { EntryFacts, EntryName, EntryType, Severity, WatchlistEntry } from './model.ts';

/** The entry's fields in the API, in an import, and in an export (the same shape, so an export imports back). */
export type EntryBody = {
  external_id?: string | null;
  type?: EntryType;
  name: string;
  aliases?: string[];
  dates_of_birth?: string[];
  countries?: string[];
  identifiers?: IdentifierBody[];
  reason: string;
  severity: Severity;
  expires_at?: string | null;
};

export type CleanEntry = { externalId: string | null; facts: EntryFacts; sha256: string };

/**
 * What separates the items of a list in a CSV cell (aliases, countries…): a name or an
 * identifier holding it could not be exported, so none may.
 */
export const LIST_SEPARATOR = '|';

/** The entry's facts, or undefined when `check` found a problem with it (each pushed with its pointer under `at`). */
export function cleanEntry(check: InputChecker, body: EntryBody, at: string): CleanEntry | undefined {
  const before = check.errors.length;
  const type = body.type ?? 'person';
  const externalId = body.external_id == null ? null : (check.text(body.external_id, `${at}/external_id`) ?? null);
  const primary = screenedName(check, body.name, `${at}/name`);
  const aliases = (body.aliases ?? []).map((alias, i) => screenedName(check, alias, `${at}/aliases/${i}`));
  const names: EntryName[] = distinct([primary, ...aliases]).map((full, i) => ({ full, kind: i === 0 ? 'primary' : 'strong_alias' }));
  if (body.dates_of_birth?.length && type !== 'person') {
    check.errors.push({ pointer: `${at}/dates_of_birth`, detail: `only a person has a date of birth; this entry is a ${type}` });
  }
  // A date of birth is in the past by nature: checked as of now, whenever the entry is read back.
  const datesOfBirth = (body.dates_of_birth ?? []).map((date, i) => check.date(date, `${at}/dates_of_birth/${i}`, new Date()) ?? date);
  const countries = (body.countries ?? []).map((country, i) => check.country(country, `${at}/countries/${i}`) ?? country);
  const identifiers = checkIdentifiers(check, body.identifiers, `${at}/identifiers`, type) ?? [];
  identifiers.forEach((identifier, i) => {
    if (identifier.value.includes(LIST_SEPARATOR))
      check.errors.push({ pointer: `${at}/identifiers/${i}/value`, detail: `must not contain "${LIST_SEPARATOR}"` });
  });
  // Prose: checked as text is, but kept with its line breaks.
  const reason = check.text(body.reason, `${at}/reason`) === undefined ? '' : body.reason.trim();
  if (check.errors.length > before) return undefined;
  const facts: EntryFacts = {
    type,
    names,
    datesOfBirth: distinct(datesOfBirth),
    countries: distinct(countries),
    identifiers,
    reason,
    severity: body.severity,
    expiresAt: body.expires_at == null ? null : new Date(body.expires_at),
  };
  return { externalId, facts, sha256: entryFactsSha256(facts) };
}

/** A name to screen: text with a letter or digit, and without the CSV list separator. */
function screenedName(check: InputChecker, value: string, pointer: string): string {
  const name = check.name(value, pointer);
  if (name?.includes(LIST_SEPARATOR)) check.errors.push({ pointer, detail: `must not contain "${LIST_SEPARATOR}" (it separates aliases in a CSV cell)` });
  return name ?? value;
}

/** The first of each value, in order: a repeated alias, date or country says nothing more. */
const distinct = (values: string[]) => [...new Set(values)];

/** The entry as a body: what an export writes and a PATCH is merged onto. */
export function entryBodyOf(entry: Pick<WatchlistEntry, 'externalId' | keyof EntryFacts>): Required<EntryBody> {
  return {
    external_id: entry.externalId,
    type: entry.type,
    name: entry.names[0]?.full ?? '',
    aliases: entry.names.slice(1).map((n) => n.full),
    dates_of_birth: entry.datesOfBirth,
    countries: entry.countries,
    identifiers: entry.identifiers as IdentifierBody[],
    reason: entry.reason,
    severity: entry.severity,
    expires_at: entry.expiresAt?.toISOString() ?? null,
  };
}
