/**
 * The answer the OpenAPI description shows, to the first of its example requests
 * (request-examples.ts), computed by the evaluation itself when the description is built, so the
 * documented answer cannot drift from what the service says.
 */
import { evaluateOwnership } from '../../ownership/evaluate.ts';
import { NOT_SCREENED } from './name-screening.ts';
import { ownershipRequest } from './request.ts';
import { FAQ_401_EXAMPLE_3 } from './request-examples.ts';

/** The answer to FAQ 401 Example 3 (its names not screened, as with `screen_names: false`). */
export function documentedAnswer() {
  const now = new Date('2026-11-22T15:04:05Z');
  const request = ownershipRequest({ ...FAQ_401_EXAMPLE_3, screen_names: false }, now);
  return {
    object: 'ownership_check',
    id: 'own_01kaq3m2c5v8x0f3r6t9w2y5b8',
    ...evaluateOwnership(request.query, {}, request.resolved),
    checked_at: now.toISOString(),
    screening: NOT_SCREENED,
    stored: false,
    record_sha256: null,
    vendor_id: null,
    case_id: null,
  };
}
