/**
 * The ownership check's request and answer: one schema validates, serializes and documents each.
 * Limits are in the schema (100,000 entities, 500,000 links, stakes in [0, 100]); what a schema
 * cannot say (unknown ids, repeats, six decimals, real dates and countries) is checked after it.
 */
import { Type } from 'typebox';
import { DESIGNATION_LISTS, type DesignationList } from '../../ownership/list-scope.ts';
import { REQUEST_EXAMPLES } from './request-examples.ts';

export const MAX_ENTITIES = 100_000;
export const MAX_OWNERSHIPS = 500_000;

const date = (description: string) => Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description, examples: ['2026-11-22'] });
const entityId = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });
/** One of the designation codes; an enum keeps both the check and the static type. */
export const ListCode = Type.Unsafe<DesignationList>({
  type: 'string',
  enum: [...DESIGNATION_LISTS],
  description: 'OFAC_SDN, OFAC_SSI, OFAC_CONS (other non-SDN OFAC lists), BIS_EL (Entity List), BIS_MEU, BIS_UVL or BIS_DPL.',
});
const Programs = Type.Array(Type.String({ pattern: '^\\[?[A-Za-z0-9][A-Za-z0-9 ._-]{0,59}\\]?$' }), {
  maxItems: 50,
  description:
    'OFAC program tags as the SDN list writes them (`RUSSIA-EO14024`, `SDGT`); brackets and case are ignored. For an SDN they decide whether it counts for BIS (15 CFR 744.8(a)(1)).',
});

const DesignationInput = Type.Object({ list: ListCode, programs: Type.Optional(Programs) }, { additionalProperties: false });

const EntityInput = Type.Object(
  {
    id: entityId('Your id for the party, unique in the request; stakes refer to it.'),
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 300,
        pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069]*$',
        description: 'The name, screened against the loaded lists when the party has no designations and `screen_names` is true (then it is required).',
      }),
    ),
    type: Type.Union([Type.Literal('person'), Type.Literal('entity')], {
      description: '`person`: a natural person, who can own but never be owned. `entity`: a company or other organization.',
    }),
    country: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z]{2}$',
        description: 'ISO 3166-1 alpha-2. `US` makes an entity domestic, which the BIS rule does not reach; absent counts as foreign.',
      }),
    ),
    designations: Type.Optional(
      Type.Array(DesignationInput, {
        maxItems: 20,
        description: 'The lists the party is on, as you know them. Absent or empty: not listed, and screened by name when `screen_names` is true.',
      }),
    ),
  },
  { additionalProperties: false },
);

const OwnershipInput = Type.Object(
  {
    owner: entityId('The id of the party holding the stake.'),
    owned: entityId('The id of the entity the stake is in.'),
    percent: Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()], {
      description: 'Percent of `owned` held by `owner`, 0 to 100 with up to 6 decimals; null when unknown. Give the higher of the voting and the equity share.',
    }),
    kind: Type.Optional(
      Type.String({
        pattern: '^[a-z][a-z_]{0,39}$',
        description:
          '`ownership` (the default) counts toward the 50% rules. Any other kind (`control`, `director`, `officer`, `veto`, …) never does, and is reported as a caution.',
      }),
    ),
    start_date: Type.Optional(date('The first day the stake was held; before it, the stake is left out.')),
    end_date: Type.Optional(date('The last day the stake was held (divested after it); after it, the stake is left out.')),
  },
  { additionalProperties: false },
);

export const OwnershipCheckBody = Type.Object(
  {
    target: entityId('The id of the entity (or person) to decide about; one of `entities`.'),
    as_of: Type.Optional(date('The date to decide for, a US Eastern calendar date. Default: today in US Eastern time.')),
    screen_names: Type.Optional(
      Type.Boolean({
        default: true,
        description:
          'Screen every party without designations by name against the loaded US lists; a match counts when its score reaches the match threshold. `false`: use only the designations given.',
      }),
    ),
    store: Type.Optional(
      Type.Boolean({
        description:
          'Keep this check on record as a determination (GET /ownership/checks/{id}): the graph as sent, the answer, the list versions and who asked, with the SHA-256 of the record. ' +
          "Your organization's rules may store every check (`ownership.store: always`); `false` does not override them. Default: false.",
      }),
    ),
    vendor_id: Type.Optional(
      Type.String({
        pattern: '^ven_[0-9a-z]{26}$',
        description:
          'A vendor of yours (`ven_…`, from POST /vendors/screen) this determination is about: the vendor record then shows its ownership status. Implies `store`. Another organization’s or an unknown vendor answers 404.',
      }),
    ),
    entities: Type.Array(EntityInput, {
      minItems: 1,
      maxItems: MAX_ENTITIES,
      description: `The parties of the structure, at most ${MAX_ENTITIES.toLocaleString('en')}.`,
    }),
    ownerships: Type.Array(OwnershipInput, {
      maxItems: MAX_OWNERSHIPS,
      description: `Who holds what in whom, at most ${MAX_OWNERSHIPS.toLocaleString('en')}. Give each stake once.`,
    }),
  },
  {
    additionalProperties: false,
    examples: REQUEST_EXAMPLES,
  },
);
