/**
 * A check-in body cleaned and checked whole (every refusal names its field), and the rule that
 * decides whether a prescreen may stand for screening at the door.
 */

import { canonicalJson } from '../../canonical-json.ts';
import { checkIdentifiers, type IdentifierBody } from '../../http/identifier-fields.ts';
import { InputChecker, optional } from '../../http/input-checker.ts';
import { compactValue, type SubjectIdentifier } from '../../screening/identifier-types.ts';
import { foldWords } from '../../screening/normalize/fold.ts';
import type { Visitor } from './session-store.ts';

export type CheckinBody = {
  visitor: {
    name: string;
    company?: string;
    country?: string;
    citizenship?: string;
    us_person_status?: string;
    email?: string;
    date_of_birth?: string;
    identifiers?: IdentifierBody[];
  };
  site: string;
  host?: { name: string; email?: string };
  purpose?: string;
  prescreen_id?: string;
  expected_departure_at?: string;
  escort_required?: boolean;
  badge_number?: string;
  metadata?: Record<string, unknown>;
};

export type Checkin = {
  visitor: Visitor;
  site: string;
  host: { name: string; email?: string } | null;
  purpose: string | null;
  prescreenId: string | null;
  expectedDepartureAt: Date | null;
  escortRequired: boolean;
  badgeNumber: string | null;
  metadata: Record<string, unknown>;
};

export function checkinInput(body: CheckinBody, now: Date): Checkin {
  const check = new InputChecker();
  const v = body.visitor;
  const visitor: Visitor = {
    name: check.name(v.name, '/visitor/name') ?? v.name,
    ...optional('company', check.name(v.company, '/visitor/company')),
    ...optional('country', check.country(v.country, '/visitor/country')),
    ...optional('citizenship', check.country(v.citizenship, '/visitor/citizenship')),
    ...optional('us_person_status', v.us_person_status),
    ...optional('email', v.email?.trim().toLowerCase()),
    ...optional('date_of_birth', check.date(v.date_of_birth, '/visitor/date_of_birth', now)),
    ...optional('identifiers', checkIdentifiers(check, v.identifiers, '/visitor/identifiers', 'person')),
  };
  const site = check.text(body.site, '/site') ?? body.site;
  const host = body.host
    ? { name: check.text(body.host.name, '/host/name') ?? body.host.name, ...optional('email', body.host.email?.trim().toLowerCase()) }
    : null;
  let expectedDepartureAt: Date | null = null;
  if (body.expected_departure_at !== undefined) {
    expectedDepartureAt = new Date(body.expected_departure_at);
    if (expectedDepartureAt <= now) check.errors.push({ pointer: '/expected_departure_at', detail: `${body.expected_departure_at} is not in the future` });
  }
  const checkin: Checkin = {
    visitor,
    site,
    host,
    purpose: check.text(body.purpose, '/purpose') ?? null,
    prescreenId: body.prescreen_id ?? null,
    expectedDepartureAt,
    escortRequired: body.escort_required ?? false,
    badgeNumber: check.text(body.badge_number, '/badge_number') ?? null,
    metadata: check.metadata(body.metadata, '/metadata') ?? {},
  };
  check.refuseIfAny('check-in');
  return checkin;
}

/** What is screened for a visitor: the person, with their company screened as an organization. */
export function screeningInputOf(visitor: Visitor) {
  return {
    subject: visitor.name,
    type: 'person' as const,
    ...optional('company', visitor.company),
    ...optional('country', visitor.country),
    ...optional('nationality', visitor.citizenship),
    ...optional('date_of_birth', visitor.date_of_birth),
    ...optional('identifiers', visitor.identifiers),
  };
}

type ScreenedInput = {
  subject?: string;
  company?: string;
  country?: string;
  nationality?: string;
  date_of_birth?: string;
  identifiers?: SubjectIdentifier[];
  type: string;
  lists?: string[];
};
type ScreenedRecord = { source: string; created_at: string; input: ScreenedInput; list_versions: { version_id: string }[] };

export type ReuseVerdict =
  | { reused: true }
  | { reused: false; reason: 'not_found' | 'not_a_prescreen' | 'not_same_person' | 'stale' | 'lists_changed' | 'country_hold' };

const folded = (name: string | undefined) =>
  name === undefined
    ? ''
    : foldWords(name)
        .map((w) => w.text)
        .sort()
        .join(' ');
/** Identifiers in one order and form: the same documents given in another order or spacing are the same. */
const sameIdentifiers = (a: SubjectIdentifier[] | undefined, b: SubjectIdentifier[] | undefined) => {
  const form = (list: SubjectIdentifier[] | undefined) => canonicalJson((list ?? []).map((i) => [i.type, compactValue(i.value), i.country ?? null]).sort());
  return form(a) === form(b);
};

/**
 * A prescreen stands for the screening at the door only when it screened this same person (every
 * screened field alike: name, company, country, citizenship, date of birth, identifiers), against
 * every list now loaded in the very versions now loaded, within the freshness window.
 */
export function prescreenReuse(
  record: ScreenedRecord | undefined,
  visitor: Visitor,
  currentVersionIds: string[],
  now: Date,
  freshnessHours: number,
): ReuseVerdict {
  if (!record) return { reused: false, reason: 'not_found' };
  if (record.source !== 'prescreen' || record.input.type !== 'person') return { reused: false, reason: 'not_a_prescreen' };
  const wanted = screeningInputOf(visitor);
  const screened = record.input;
  const same =
    folded(screened.subject) === folded(wanted.subject) &&
    folded(screened.company) === folded(wanted.company) &&
    screened.country === wanted.country &&
    screened.nationality === wanted.nationality &&
    screened.date_of_birth === wanted.date_of_birth &&
    sameIdentifiers(screened.identifiers, wanted.identifiers);
  if (!same) return { reused: false, reason: 'not_same_person' };
  if (now.getTime() - Date.parse(record.created_at) > freshnessHours * 3_600_000) return { reused: false, reason: 'stale' };
  const consulted = record.list_versions
    .map((v) => v.version_id)
    .sort()
    .join(',');
  if (screened.lists || consulted !== [...currentVersionIds].sort().join(',')) return { reused: false, reason: 'lists_changed' };
  return { reused: true };
}
