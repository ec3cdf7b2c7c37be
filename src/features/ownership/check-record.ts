/**
 * A stored ownership determination: the question as it was asked (the graph as submitted), the
 * answer as it was given, and who asked and when, hashed over its canonical JSON so that a record
 * read months later can be shown to be the one made then. What may change after it is stored (the
 * case it opened, the determination that superseded it) stays outside the record and its hash.
 */
import type { Static } from 'typebox';
import { canonicalJson } from '../../canonical-json.ts';
import { sha256Hex } from '../../sha256.ts';
import type { OwnershipStatus } from '../cases/rules.ts';
import type { AskedQuestion } from './request.ts';
import type { StoredAnswer } from './verdict-schema.ts';

/** The answer POST /ownership/check gave, as the record keeps it. */
export type OwnershipAnswer = Static<typeof StoredAnswer>;

export type OwnershipCheckRecord = {
  id: string;
  checked_at: string;
  status: OwnershipStatus;
  as_of: string;
  target: { id: string; name: string | null };
  asked_by: { type: 'api_key' | 'user' | 'system'; id: string };
  request_id: string | null;
  vendor_id: string | null;
  /** The determination this one re-evaluated (after a list change), if any. */
  supersedes: string | null;
  request: AskedQuestion;
  answer: OwnershipAnswer;
};

export const recordSha256 = (record: OwnershipCheckRecord) => sha256Hex(canonicalJson(record));
