/**
 * A stored determination re-evaluated after a list version changed: the question asked again, as
 * it was asked (its graph, its `as_of` if it gave one, else today), answered by the check's own
 * code (answer-check.ts) against one snapshot of the lists that holds the version. A verdict that
 * changed (the status, or either rule's blocked, restricted or determinate) is stored as a new
 * determination that supersedes the old one, which learns `superseded_by` and leaves the index;
 * the re-evaluation is audited, naming the new record's hash, and announced as `ownership.changed`;
 * the case of the old determination follows the new one, or the new one opens a case, per the rules
 * (determination-cases.ts).
 * A verdict that did not change stores nothing: the old determination stands.
 */
import { type AuditContext, recordAudit } from '../../audit/audit.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import { recordEvent } from '../../events/outbox.ts';
import type { FollowedVersion } from '../../lists/version-follower.ts';
import type { CaseStatusHook } from '../cases/status-hook.ts';
import { type AnswerBasis, answerCheck } from './answer-check.ts';
import type { OwnershipAnswer, OwnershipCheckRecord } from './check-record.ts';
import { findCheck, markSuperseded } from './check-store.ts';
import { caseForChangedVerdict } from './determination-cases.ts';
import { deletePartyKeys } from './party-key-store.ts';
import { ownershipRequest } from './request.ts';
import { determinationRecord, keepDetermination } from './store-check.ts';

/** `skipped`: superseded meanwhile, gone, or already decided against this version or a later one. */
export type Reevaluation = 'skipped' | 'unchanged' | 'changed';

type Verdict = Pick<OwnershipAnswer, 'ofac' | 'bis'>;
const sameVerdict = (a: Verdict, b: Verdict) =>
  a.ofac.blocked === b.ofac.blocked &&
  a.ofac.determinate === b.ofac.determinate &&
  a.bis.restricted === b.bis.restricted &&
  a.bis.determinate === b.bis.determinate;

/** The determination's screening already used this version of the list, or a later one. */
function decidedSince(record: OwnershipCheckRecord, version: FollowedVersion): boolean {
  const used = record.answer.screening.list_versions.find((v) => v.list === version.list);
  return used !== undefined && (used.version_id === version.versionId || new Date(used.imported_at) > version.importedAt);
}

export async function reevaluateCheck(
  trx: TenantTransaction,
  context: AuditContext,
  checkId: string,
  basis: AnswerBasis & { version: FollowedVersion; statusChanged: Pick<CaseStatusHook, 'run'> },
): Promise<Reevaluation> {
  // Locked: two runs (two lists' versions) never supersede one determination twice.
  const stored = await findCheck(trx, checkId, { forUpdate: true });
  if (!stored || stored.supersededBy !== null || decidedSince(stored.record, basis.version)) return 'skipped';
  const previous = stored.record;
  const body = { ...previous.request, ...(previous.vendor_id && { vendor_id: previous.vendor_id }) };
  const request = ownershipRequest(body, basis.now);
  const { answer } = await answerCheck(request, basis);
  // The status follows from the four (check-status.ts): comparing them compares it too.
  if (sameVerdict(previous.answer, answer)) return 'unchanged';

  const organizationId = context.actor.organizationId;
  const next = determinationRecord(context, request, answer, previous.id);
  const { record } = next;
  await keepDetermination(trx, organizationId, next, request.toScreen);
  await markSuperseded(trx, previous.id, record.id);
  await deletePartyKeys(trx, previous.id);
  const caseOn = { rules: basis.terms.rules, statusChanged: basis.statusChanged, now: basis.now };
  const caseId = await caseForChangedVerdict(trx, context, { determination: record, previous, previousCaseId: stored.caseId }, caseOn);
  const change = { list: basis.version.list, list_version_id: basis.version.versionId };
  recordAudit(trx, context, {
    action: 'ownership.reevaluated',
    target: { type: 'ownership_check', id: record.id },
    details: {
      supersedes: previous.id,
      status: record.status,
      previous_status: previous.status,
      record_sha256: next.recordSha256,
      ...change,
      case_id: caseId,
    },
  });
  recordEvent(trx, organizationId, {
    type: 'ownership.changed',
    data: {
      determination_id: record.id,
      previous_determination_id: previous.id,
      status: record.status,
      previous_status: previous.status,
      target_id: record.target.id,
      ...change,
      case_id: caseId,
    },
  });
  return 'changed';
}
