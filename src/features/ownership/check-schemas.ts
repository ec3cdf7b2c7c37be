/**
 * Stored ownership determinations as the API shows them: one whole (the question, the answer and
 * the record's hash checked on reading), and a list of them (what each decided, never the graph).
 */
import { Type } from 'typebox';
import { NextCursor } from '../../http/id-page.ts';
import { enumOf } from '../../http/text-fields.ts';
import { OWNERSHIP_STATUSES } from '../cases/rules.ts';
import { OwnershipCheckBody } from './schemas.ts';
import { StoredAnswer } from './verdict-schema.ts';

export const CheckParams = Type.Object({ id: Type.String({ pattern: '^own_[0-9a-z]{26}$', description: 'The determination id, `own_…`.' }) });

const STATUS_WORDS =
  '`blocked`: OFAC 50 Percent Rule; `restricted`: BIS Affiliates Rule and not blocked; `indeterminate`: neither reached the target and unknown stakes keep one of them from deciding; `clear`: neither reaches it.';
const status = enumOf(OWNERSHIP_STATUSES, `The determination in one word. ${STATUS_WORDS}`);
const nullableId = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

const common = {
  id: Type.String({ description: 'The id of the check, `own_…`, as its POST answer and its audit event name it.' }),
  checked_at: Type.String({ format: 'date-time' }),
  status,
  as_of: Type.String({ description: 'The date decided for (US Eastern).' }),
  vendor_id: nullableId('The vendor the determination is about, when attached.'),
  supersedes: nullableId('The determination this one re-evaluated after a list change; null for a check asked by a caller.'),
  superseded_by: nullableId('The determination a later re-evaluation made of the same graph, when the verdict changed; null while this one is current.'),
  case_id: nullableId('The adjudication case the determination opened or reopened, if any.'),
  record_sha256: Type.String({
    description: "SHA-256 of the record's canonical JSON: every field of the record except `superseded_by`, `case_id` and the hash fields.",
  }),
};

const Target = Type.Object({ id: Type.String({ description: 'Your id for the target party.' }), name: Type.Union([Type.String(), Type.Null()]) });

export const StoredCheckSchema = Type.Object(
  {
    object: Type.Literal('ownership_determination'),
    ...common,
    target: Target,
    asked_by: Type.Object({ type: Type.String(), id: Type.String() }, { description: 'The API key or person who asked (`system` for a re-evaluation).' }),
    request_id: nullableId('The request that asked, as the audit trail names it.'),
    request: Type.Omit(OwnershipCheckBody, ['store', 'vendor_id'], { description: 'The question as it was asked: the graph as submitted.' }),
    answer: StoredAnswer,
    record_sha256_verified: Type.Boolean({
      description: 'The record read back hashes to `record_sha256`: it is the one stored (and named by its audit event `ownership.checked`).',
    }),
  },
  { description: 'An ownership determination on record.' },
);

export const CheckSummarySchema = Type.Object(
  { object: Type.Literal('ownership_determination'), ...common, target: Target },
  { description: 'A stored determination without its graph: GET /ownership/checks/{id} for the whole record.' },
);

export const VendorParams = Type.Object({ id: Type.String({ pattern: '^ven_[0-9a-z]{26}$', description: 'The vendor id, `ven_…`.' }) });

export const VendorOwnershipSchema = Type.Object(
  {
    object: Type.Literal('vendor_ownership'),
    vendor_id: Type.String(),
    status: Type.Union([status, Type.Literal('unknown')], {
      description: `The current determination's status; \`unknown\` when no determination is attached. ${STATUS_WORDS}`,
    }),
    determination: Type.Union([CheckSummarySchema, Type.Null()], {
      description: 'The newest determination attached to the vendor that no re-evaluation superseded.',
    }),
  },
  { description: "A vendor's ownership status, from the determinations attached to it (POST /ownership/check with `vendor_id`)." },
);

export const ChecksQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "Only determinations whose target's name contains this, case-insensitively." })),
    target_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Only determinations about the target with this id (yours, as sent in `target`).' }),
    ),
    status: Type.Optional(enumOf(OWNERSHIP_STATUSES, `Only determinations with this status. ${STATUS_WORDS}`)),
    vendor_id: Type.Optional(Type.String({ pattern: '^ven_[0-9a-z]{26}$', description: 'Only determinations attached to this vendor.' })),
    checked_after: Type.Optional(Type.String({ format: 'date-time', description: 'Only determinations made after this instant.' })),
    checked_before: Type.Optional(Type.String({ format: 'date-time', description: 'Only determinations made before this instant.' })),
    current: Type.Optional(Type.Boolean({ description: '`true`: only determinations no re-evaluation superseded.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'At most this many items.' })),
    cursor: Type.Optional(Type.String({ maxLength: 300, description: 'The `next_cursor` of the page before.' })),
  },
  { additionalProperties: false },
);

export const ChecksPage = Type.Object(
  { object: Type.Literal('list'), data: Type.Array(CheckSummarySchema), has_more: Type.Boolean(), next_cursor: NextCursor },
  { description: 'A page of determinations, newest first.' },
);
