/**
 * A prescreen body cleaned into what is screened, every refusal naming its field.
 */
import { checkIdentifiers, type IdentifierBody } from '../../http/identifier-fields.ts';
import { InputChecker, optional } from '../../http/input-checker.ts';
import type { ScreeningInput } from './screening-record.ts';

export type PrescreenBody = {
  subject?: string;
  company?: string;
  country?: string;
  type?: 'person' | 'organization' | 'vessel';
  date_of_birth?: string;
  nationality?: string;
  address?: string;
  aliases?: string[];
  identifiers?: IdentifierBody[];
  reference?: string;
  lists?: string[];
  metadata?: Record<string, unknown>;
};

export function prescreenInput(body: PrescreenBody, loadedLists: readonly string[], now: Date): ScreeningInput {
  const check = new InputChecker();
  const subject = check.name(body.subject, '/subject');
  const company = check.name(body.company, '/company');
  if (body.subject === undefined && body.company === undefined) check.errors.push({ pointer: '/subject', detail: 'give a subject, a company, or both' });
  const aliases = body.aliases?.map((alias, i) => check.name(alias, `/aliases/${i}`)).filter((a): a is string => a !== undefined);
  const type = body.type ?? (subject ? 'person' : 'organization');
  const input: ScreeningInput = {
    ...(subject && { subject }),
    ...(company && { company }),
    type,
    ...optional('country', check.country(body.country, '/country')),
    ...optional('nationality', check.country(body.nationality, '/nationality')),
    ...optional('address', check.text(body.address, '/address')),
    ...optional('date_of_birth', check.date(body.date_of_birth, '/date_of_birth', now)),
    ...(aliases && aliases.length > 0 && { aliases }),
    ...optional('identifiers', checkIdentifiers(check, body.identifiers, '/identifiers', type)),
    ...optional('reference', check.text(body.reference, '/reference')),
    ...optional('lists', check.lists(body.lists, '/lists', loadedLists)),
    ...optional('metadata', check.metadata(body.metadata, '/metadata')),
  };
  if (body.type !== undefined && body.type !== 'organization' && body.subject === undefined) {
    check.errors.push({ pointer: '/type', detail: `\`${body.type}\` needs a subject; a company alone is screened as an organization` });
  }
  if (type !== 'person' && body.date_of_birth !== undefined)
    check.errors.push({ pointer: '/date_of_birth', detail: `applies to a person, not ${type === 'vessel' ? 'a vessel' : 'an organization'}` });
  if (type === 'vessel' && body.nationality !== undefined)
    check.errors.push({ pointer: '/nationality', detail: "applies to a person; give a vessel's flag as `country`" });
  check.refuseIfAny('screening request');
  return input;
}
