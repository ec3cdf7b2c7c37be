/**
 * Country screening: which rows of the sanctions table apply to a subject's countries, regions and
 * address text on a given date. Each flag carries its regime, severity, reason, citation and source,
 * so the answer explains itself without the table.
 *
 * Input countries are ISO 3166-1 alpha-2 codes. Case and surrounding spaces do not matter ("ir" is
 * IR); anything else ("Iran", "UK", "") is refused with a CountryInputError rather than passed over,
 * because a value that is silently ignored would read as a clean country. Names go through
 * countryCode() first. Region ids are refused the same way when unknown.
 *
 * A region flag names its parent country (UA) and its region; it never flags the parent country as
 * a whole, and a country flag is raised only by the countries given, never by the text.
 */

import { easternDate } from '../../eastern-date.ts';
import { countryCode } from '../countries.ts';
import { regionsInText, SANCTIONED_REGION_IDS, sanctionedRegion } from './regions.ts';
import { COUNTRY_SANCTIONS, COUNTRY_SANCTIONS_REVIEWED_ON, type CountrySanction, type SanctionedRegionId } from './table.ts';

export type { CountryRegime, CountrySeverity, SanctionedRegionId } from './table.ts';
export { COUNTRY_SANCTIONS_REVIEWED_ON };

/** A table row as the API shows it, in snake case, with the matched term of a region found in text. */
export type CountryFlag = Pick<CountrySanction, 'country' | 'region' | 'regime' | 'severity' | 'reason' | 'citation'> & {
  source_url: string;
  /** YYYY-MM-DD. When `effective_from_exact` is false: a day the measure is known to apply, its start unconfirmed. */
  effective_from: string;
  effective_from_exact: boolean;
  /** For a region found in the text: the name that matched (lower case, no diacritics). */
  matched_term?: string;
};

export type CountryScreeningInput = { countries: string[]; regions?: string[]; text?: string };

export class CountryInputError extends Error {
  override name = 'CountryInputError';
}

const ICU_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** The ISO code, upper-cased; refuses what is not one (ICU names "UK" too, but its name maps back to GB). */
export function isoCountryCode(value: string): string {
  const code = value.trim().toUpperCase();
  const name = /^[A-Z]{2}$/.test(code) ? ICU_NAMES.of(code) : undefined;
  const roundTrip = name && countryCode(name);
  if (roundTrip === code) return code;
  const hint = roundTrip ? ` (did you mean ${roundTrip}?)` : countryCode(value) ? ` (for the name, use ${countryCode(value)})` : '';
  throw new CountryInputError(`"${value}" is not an ISO 3166-1 alpha-2 country code${hint}`);
}

function regionId(value: string): SanctionedRegionId {
  const region = sanctionedRegion(value);
  if (!region) throw new CountryInputError(`"${value}" is not a sanctioned region id; known ids: ${SANCTIONED_REGION_IDS.join(', ')}`);
  return region;
}

/** The U.S. Eastern calendar day of an instant: sanctions take effect at 12:01 a.m. Eastern. */
function easternDay(asOf: Date): string {
  if (Number.isNaN(asOf.getTime())) throw new CountryInputError('asOf is not a valid date');
  return easternDate(asOf);
}

/** An unconfirmed start applies to every earlier day too: the table flags when unsure, it never clears. */
const inForce = (row: CountrySanction, day: string) => (!row.fromExact || row.from <= day) && (!row.until || day < row.until);

const toFlag = (row: CountrySanction, matchedTerm?: string): CountryFlag => ({
  country: row.country,
  ...(row.region && { region: row.region }),
  regime: row.regime,
  severity: row.severity,
  reason: row.reason,
  citation: row.citation,
  source_url: row.sourceUrl,
  effective_from: row.from,
  effective_from_exact: row.fromExact,
  ...(matchedTerm && { matched_term: matchedTerm }),
});

/**
 * Every table row that applies on `asOf` to the given countries, regions and text, once per
 * (country, region, regime), in table order: OFAC, then ITAR, then EAR.
 */
export function countryFlags(input: CountryScreeningInput, asOf: Date): CountryFlag[] {
  const day = easternDay(asOf);
  const countries = new Set(input.countries.map(isoCountryCode));
  const regions = new Map<SanctionedRegionId, string | undefined>((input.regions ?? []).map((id) => [regionId(id), undefined]));
  for (const { region, term } of input.text ? regionsInText(input.text) : []) {
    if (!regions.has(region)) regions.set(region, term);
  }
  return COUNTRY_SANCTIONS.filter((row) => inForce(row, day) && (row.region ? regions.has(row.region) : countries.has(row.country))).map((row) =>
    toFlag(row, row.region && regions.get(row.region)),
  );
}
