/**
 * An ownership check request made into a query the evaluation can trust, or refused whole with
 * every problem pointed at: the graph's own checks (src/ownership/validate.ts), country codes
 * that exist, and, when names are to be screened, a name on every party without designations
 * and no more distinct names than one request may screen.
 */

import type { Static } from 'typebox';
import { easternDate } from '../../eastern-date.ts';
import { AppError, type FieldError } from '../../http/errors.ts';
import type { ResolvedIds } from '../../ownership/graph.ts';
import { normalizeProgram } from '../../ownership/list-scope.ts';
import type { GraphEntity, OwnershipQuery } from '../../ownership/types.ts';
import { MAX_PROBLEMS, validateOwnershipQuery } from '../../ownership/validate.ts';
import { CountryInputError, isoCountryCode } from '../../screening/country-sanctions/lookup.ts';
import type { OwnershipCheckBody } from './schemas.ts';

/**
 * Screening runs in the request (about 2,000 names a second on one core): past this many distinct
 * names the caller is asked to give designations or to screen in batches (POST /vendors/screen).
 */
export const MAX_SCREENED_NAMES = 10_000;

export type OwnershipBody = Static<typeof OwnershipCheckBody>;
/** The question as it was asked: the body without what only steers storing it. */
export type AskedQuestion = Omit<OwnershipBody, 'store' | 'vendor_id'>;

/** A party to screen by name: its position in `entities`, and what the screening index is asked. */
export type NameToScreen = { index: number; name: string; kind: 'person' | 'organization'; country?: string };

export type OwnershipRequest = {
  query: OwnershipQuery;
  resolved: ResolvedIds;
  screenNames: boolean;
  toScreen: NameToScreen[];
  /** Asked to be kept on record (`store`, or a vendor named); the rules may store it anyway. */
  store: boolean;
  vendorId?: string;
  /** The question as asked (the body without what only steers storing it), as a stored determination keeps it. */
  question: Omit<OwnershipBody, 'store' | 'vendor_id'>;
  /** The target's name as given, for the stored determination's list. */
  targetName: string | null;
};

export function ownershipRequest(body: OwnershipBody, now: Date): OwnershipRequest {
  const screenNames = body.screen_names ?? true;
  const countries = new Map<string, string | Error>();
  const problems: FieldError[] = [];
  const entities: GraphEntity[] = body.entities.map((entity, i) => {
    const country = entity.country === undefined ? undefined : countryOf(entity.country, countries);
    if (country instanceof Error) problems.push({ pointer: `/entities/${i}/country`, detail: country.message });
    return {
      id: entity.id,
      type: entity.type,
      ...(typeof country === 'string' && { country }),
      designations: (entity.designations ?? []).map((d) => ({
        list: d.list,
        ...(d.programs && { programs: d.programs.map(normalizeProgram) }),
        source: 'given' as const,
      })),
    };
  });
  const query: OwnershipQuery = { target: body.target, asOf: body.as_of ?? easternDate(now), entities, ownerships: body.ownerships };
  const validation = validateOwnershipQuery(query);
  const toScreen = screenNames ? namesToScreen(body, problems) : [];
  const total = validation.total + problems.length;
  if (!validation.resolved || problems.length > 0) refuse([...validation.problems, ...problems].slice(0, MAX_PROBLEMS), total);
  const { store, vendor_id: vendorId, ...question } = body;
  const targetName = body.entities.find((entity) => entity.id === body.target)?.name ?? null;
  return {
    query,
    resolved: validation.resolved as ResolvedIds,
    screenNames,
    toScreen,
    store: store === true || vendorId !== undefined,
    ...(vendorId && { vendorId }),
    question,
    targetName,
  };
}

/** Every party without designations, with its name; the distinct names must stay within MAX_SCREENED_NAMES. */
function namesToScreen(body: OwnershipBody, problems: FieldError[]): NameToScreen[] {
  const names: NameToScreen[] = [];
  const distinct = new Set<string>();
  body.entities.forEach((entity, index) => {
    if ((entity.designations ?? []).length > 0) return;
    const name = entity.name?.trim().replace(/\s+/g, ' ');
    if (!name) {
      problems.push({
        pointer: `/entities/${index}/name`,
        detail: 'is needed to screen this party by name: it has no designations and screen_names is true (give its designations, or set screen_names to false)',
      });
      return;
    }
    const kind = entity.type === 'person' ? 'person' : 'organization';
    const country = entity.country?.toUpperCase();
    distinct.add(`${kind}\u0000${country ?? ''}\u0000${name}`);
    names.push({ index, name, kind, ...(country && { country }) });
  });
  if (distinct.size > MAX_SCREENED_NAMES) {
    problems.push({
      pointer: '/screen_names',
      detail: `would screen ${distinct.size.toLocaleString('en')} distinct names; one check screens at most ${MAX_SCREENED_NAMES.toLocaleString('en')}. Give the designations you know and set screen_names to false, or screen the names first with POST /api/v1/vendors/screen`,
    });
  }
  return names;
}

/** Country codes are few and repeat: each distinct one is checked once. */
function countryOf(value: string, known: Map<string, string | Error>): string | Error {
  let result = known.get(value);
  if (result === undefined) {
    try {
      result = isoCountryCode(value);
    } catch (error) {
      if (!(error instanceof CountryInputError)) throw error;
      result = error;
    }
    known.set(value, result);
  }
  return result;
}

function refuse(problems: FieldError[], total: number): never {
  const shown = problems.slice(0, 3).map((p) => `${p.pointer} ${p.detail}`);
  const more = total > shown.length ? `; and ${(total - shown.length).toLocaleString('en')} more` : '';
  throw new AppError(
    'validation_failed',
    `The ownership check has ${total === 1 ? 'a problem' : `${total.toLocaleString('en')} problems`}, and nothing was evaluated: ${shown.join('; ')}${more}.`,
    {
      errors: problems.map((p) => ({ ...p, in: 'body' as const })),
      ...(total > problems.length && { errors_total: total }),
    },
  );
}
