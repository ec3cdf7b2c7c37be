/**
 * A workforce payload checked whole before anything is stored: every problem with its pointer
 * (`/profiles/17/country`), duplicate external ids refused, and each profile reduced to what is
 * stored and to the two hashes that tell a change that needs screening from one that does not.
 */
import { canonicalJson } from '../../canonical-json.ts';
import { checkIdentifiers, type IdentifierBody } from '../../http/identifier-fields.ts';
import { InputChecker, optional } from '../../http/input-checker.ts';
import type { SubjectIdentifier } from '../../screening/identifier-types.ts';
import { sha256Hex } from '../../sha256.ts';

export type ProfileBody = {
  external_id: string;
  name: string;
  email?: string;
  country?: string;
  citizenship?: string;
  us_person_status?: string;
  date_of_birth?: string;
  identifiers?: IdentifierBody[];
  department?: string;
  status?: 'active' | 'inactive';
  metadata?: Record<string, unknown>;
};

export type Profile = Omit<ProfileBody, 'external_id' | 'status' | 'identifiers'> & { identifiers?: SubjectIdentifier[] };

export type CleanProfile = {
  externalId: string;
  status: 'active' | 'inactive';
  profile: Profile;
  /** Of the facts screening reads: name, date of birth, country, citizenship, identifiers. */
  screenedSha256: string;
  /** Of everything stored: an equal hash means nothing to update. */
  profileSha256: string;
};

export function cleanProfiles(bodies: ProfileBody[], now: Date): CleanProfile[] {
  const check = new InputChecker();
  const firstIndex = new Map<string, number>();
  const profiles = bodies.map((body, i): CleanProfile => {
    const at = `/profiles/${i}`;
    const externalId = check.text(body.external_id, `${at}/external_id`) ?? body.external_id;
    const first = firstIndex.get(externalId);
    if (first !== undefined) check.errors.push({ pointer: `${at}/external_id`, detail: `repeats /profiles/${first}/external_id (${externalId})` });
    else firstIndex.set(externalId, i);
    const profile: Profile = {
      name: check.name(body.name, `${at}/name`) ?? body.name,
      ...optional('email', body.email?.trim().toLowerCase()),
      ...optional('country', check.country(body.country, `${at}/country`)),
      ...optional('citizenship', check.country(body.citizenship, `${at}/citizenship`)),
      ...optional('us_person_status', body.us_person_status),
      ...optional('date_of_birth', check.date(body.date_of_birth, `${at}/date_of_birth`, now)),
      ...optional('identifiers', checkIdentifiers(check, body.identifiers, `${at}/identifiers`, 'person')),
      ...optional('department', check.text(body.department, `${at}/department`)),
      ...optional('metadata', check.metadata(body.metadata, `${at}/metadata`)),
    };
    const status = body.status ?? 'active';
    // Identifiers only when given, so that a profile synced without any keeps the hash it had.
    const screened = {
      name: profile.name,
      date_of_birth: profile.date_of_birth ?? null,
      country: profile.country ?? null,
      citizenship: profile.citizenship ?? null,
      ...(profile.identifiers && { identifiers: profile.identifiers }),
    };
    return { externalId, status, profile, screenedSha256: sha256Hex(canonicalJson(screened)), profileSha256: sha256Hex(canonicalJson({ status, profile })) };
  });
  check.refuseIfAny('workforce sync');
  return profiles;
}

/** What is screened for a person on the workforce. */
export function screeningInputOf(externalId: string, profile: Profile) {
  return {
    subject: profile.name,
    type: 'person' as const,
    reference: externalId,
    ...optional('country', profile.country),
    ...optional('nationality', profile.citizenship),
    ...optional('date_of_birth', profile.date_of_birth),
    ...optional('identifiers', profile.identifiers),
  };
}
