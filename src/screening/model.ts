/**
 * One model for every restricted-party list, whatever its source format. Parsers produce it;
 * the index, the scorer and the database read it.
 */

/**
 * Where an entry is published. CSL sources beyond these get codes of their own, and OpenSanctions
 * datasets beyond these `OS_` and the dataset's name (ftm-list-code.ts). EU_FSF: the EU's
 * Financial Sanctions Files (consolidated list of financial sanctions).
 */
export type ListCode =
  | 'OFAC_SDN'
  | 'OFAC_CONS'
  | 'UN_SC'
  | 'BIS_DPL'
  | 'BIS_EL'
  | 'BIS_UVL'
  | 'BIS_MEU'
  | 'DDTC_DEBARRED'
  | 'UK_FCDO'
  | 'EU_FSF'
  | (string & {});

/**
 * A watchlist's slug, as a regular expression's source: an organization's own watchlist is
 * screened as a list whose code is `ORG:<slug>`.
 */
export const WATCHLIST_SLUG_PATTERN = '[a-z0-9][a-z0-9_-]{0,39}';

export type EntityType = 'person' | 'organization' | 'vessel' | 'aircraft';

/**
 * - `primary`: the listed name.
 * - `strong_alias`: a.k.a. the list expects screening on.
 * - `weak_alias`: a low-quality a.k.a. (OFAC: for confirming hits, not for screening).
 * - `former_name`: f.k.a.
 * - `original_script`: the name in its own script (UN).
 */
export type NameKind = 'primary' | 'strong_alias' | 'weak_alias' | 'former_name' | 'original_script';

export type ListedName = {
  full: string;
  kind: NameKind;
  /** For people when the source splits them: OFAC's `LAST, First` gives both. */
  given?: string;
  family?: string;
};

/** A date known to a year, a month or a day; `circa` and ranges are kept, not rounded away. */
export type PartialDate = { year: number; month?: number; day?: number };
export type DateOfBirth = PartialDate & { circa?: boolean; until?: PartialDate };

export type Identifier = { type: string; value: string; country?: string; note?: string };

export type ListEntity = {
  list: ListCode;
  /** The source's own id (OFAC ent_num as a string, UN reference number, …). */
  entryId: string;
  type: EntityType;
  names: ListedName[];
  /** ISO 3166-1 alpha-2, from addresses, nationality and citizenship. */
  countries: string[];
  /** Country names the table could not map, kept rather than dropped. */
  unmappedCountries: string[];
  datesOfBirth: DateOfBirth[];
  placesOfBirth: string[];
  nationalities: string[];
  identifiers: Identifier[];
  programs: string[];
  /** Names of entities this one is linked to (OFAC "Linked To:"). */
  linkedTo: string[];
  title?: string;
  gender?: 'male' | 'female';
  addresses: { street?: string; cityStatePostal?: string; country?: string; countryName?: string }[];
  remarks?: string;
  listedOn?: PartialDate;
};

/** A date written `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (as the API takes one), known to that part. */
export function isoPartialDate(text: string): PartialDate | undefined {
  const [year, month, day] = text.split('-').map(Number);
  if (!year) return undefined;
  return { year, ...(month && { month }), ...(day && { day }) };
}

/** A partial date written back as `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, as far as it is known. */
export const partialDateText = (d: PartialDate): string =>
  [d.year, d.month, d.day]
    .filter((n) => n !== undefined)
    .map((n, i) => (i === 0 ? String(n) : String(n).padStart(2, '0')))
    .join('-');

/** An entity with every list-valued field empty, for parsers to fill in. */
export function emptyEntity(fields: Pick<ListEntity, 'list' | 'entryId' | 'type' | 'names'> & Partial<ListEntity>): ListEntity {
  return {
    countries: [],
    unmappedCountries: [],
    datesOfBirth: [],
    placesOfBirth: [],
    nationalities: [],
    identifiers: [],
    programs: [],
    linkedTo: [],
    addresses: [],
    ...fields,
  };
}
