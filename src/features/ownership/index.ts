/**
 * POST /ownership/check (Enterprise): decides whether an entity is blocked under OFAC's 50 Percent
 * Rule and restricted under the BIS Affiliates Rule, from an ownership graph the caller sends.
 * The evaluation is src/ownership/; this route checks the request, screens names, and answers.
 */
import { auditContextOf } from '../../http/audit-context.ts';
import type { Feature } from '../../http/feature.ts';
import { registerCheckRoutes } from './check-routes.ts';
import { MAX_SCREENED_NAMES, ownershipRequest } from './request.ts';
import { MAX_ENTITIES, MAX_OWNERSHIPS, OwnershipCheckBody } from './schemas.ts';
import type { OwnershipService } from './service.ts';
import { OwnershipCheckResult } from './verdict-schema.ts';

/**
 * The largest body this route reads (96 MiB), far above the service-wide BODY_LIMIT_BYTES:
 * 100,000 entities and 500,000 stakes with 36-character ids come to about 70 MB of JSON.
 */
export const OWNERSHIP_BODY_LIMIT_BYTES = 96 * 2 ** 20;

const DESCRIPTION = [
  "Evaluates an ownership graph under OFAC's 50 Percent Rule and the BIS Affiliates Rule (Supp. No. 8 to Part 744) on `as_of` (default: today, US Eastern).",
  'An entity is covered when the stakes held in it by listed parties, and by entities they cover in turn, add up to 50% or more: stakes of different',
  'owners are added, percentages are never multiplied along a chain, arithmetic is exact (49.99 + 0.01 is 50; 49.99 is not), and control never counts.',
  'OFAC counts SDNs under any program; BIS counts the Entity List, the MEU List and SDNs under the 15 CFR 744.8(a)(1) programs, reaches foreign entities only,',
  'and applies on the dates the rule is in force (from 2025-09-29; suspended 2025-11-10 to 2026-11-09; in force again from 2026-11-10), naming the status and its source.',
  'Stakes of unknown size (`percent: null`) give a lower and an upper bound: where they disagree the answer is `determinate: false`, and for BIS Red Flag 29.',
  'Cycles are allowed and never make their own members covered. `paths` show which owners, with which stakes, made which entity covered, from the listed party down.',
  `With \`screen_names\` (default true), each party without designations is screened by name (at most ${MAX_SCREENED_NAMES.toLocaleString('en')} distinct names)`,
  'against the loaded OFAC and BIS lists; a match at or above the match threshold counts as a designation marked `source: screening`, a weaker one is reported',
  "and not counted. Your organization's active watchlists are screened too: a party matching one is reported (`screening_matches[].watchlist`, warning",
  '`watchlist_match`) and never counted as a designation.',
  'With no list loaded this answers 503 `lists_unavailable`; send `screen_names: false` to evaluate the designations given.',
  `Up to ${MAX_ENTITIES.toLocaleString('en')} entities and ${MAX_OWNERSHIPS.toLocaleString('en')} stakes; this route reads bodies up to 96 MiB (other routes: BODY_LIMIT_BYTES).`,
  'Unknown ids, repeated ids or stakes, self-ownership, an owned natural person, stakes outside 0–100 or with more than 6 decimals, and a missing target answer 400,',
  'each problem pointed at (the first 1,000, with `errors_total`), and nothing is evaluated. Each check is audited (`ownership.checked`: counts and verdicts, no names).',
].join(' ');

const ownership: Feature<{ ownership: OwnershipService }> = {
  name: 'ownership',
  async register(api, _context, { ownership: service }) {
    api.post(
      '/ownership/check',
      {
        bodyLimit: OWNERSHIP_BODY_LIMIT_BYTES,
        config: { tier: 'enterprise', permission: 'operate', problems: ['lists_unavailable'] },
        schema: {
          tags: ['ownership'],
          summary: 'Check an ownership structure against the OFAC 50 Percent Rule and the BIS Affiliates Rule',
          description: DESCRIPTION,
          body: OwnershipCheckBody,
          response: { 200: OwnershipCheckResult },
        },
      },
      async (request) => {
        const now = new Date();
        return service.check(auditContextOf(request), ownershipRequest(request.body, now), now);
      },
    );
    registerCheckRoutes(api, service);
  },
};

export default ownership;
