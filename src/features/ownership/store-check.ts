/**
 * Keeping a determination on record, in the transaction that audits it: the record built from
 * the question and the answer, its hash, the row, and an audit event that names both, so the
 * chain vouches for the record and the record can be checked against the chain.
 */
import type { AuditContext } from '../../audit/audit.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import { AppError, type FieldError } from '../../http/errors.ts';
import { vendorExists } from '../screenings/store.ts';
import { type OwnershipAnswer, type OwnershipCheckRecord, recordSha256 } from './check-record.ts';
import { determinationStatus } from './check-status.ts';
import { insertCheck } from './check-store.ts';
import { insertPartyKeys } from './party-key-store.ts';
import { partyKeys, type ScreenedName } from './party-keys.ts';
import type { OwnershipRequest } from './request.ts';

export type StoredDetermination = { record: OwnershipCheckRecord; recordSha256: string };

/** Answers 404 for a vendor the caller's organization does not have (row-level security hides another's). */
export async function requireVendor(
  trx: TenantTransaction,
  vendorId: string,
  named: Pick<FieldError, 'pointer' | 'in'> = { pointer: '/vendor_id', in: 'body' },
) {
  if (!(await vendorExists(trx, vendorId)))
    throw new AppError('not_found', `No vendor ${vendorId}.`, { errors: [{ ...named, detail: 'is not a vendor of yours' }] });
}

export function determinationRecord(
  context: AuditContext,
  request: Pick<OwnershipRequest, 'question' | 'targetName' | 'vendorId'>,
  answer: OwnershipAnswer,
  supersedes: string | null = null,
): StoredDetermination {
  const record: OwnershipCheckRecord = {
    id: answer.id,
    checked_at: answer.checked_at,
    status: determinationStatus(answer),
    as_of: answer.as_of,
    target: { id: answer.target, name: request.targetName },
    asked_by: { type: context.actor.kind, id: context.actor.id },
    request_id: context.requestId,
    vendor_id: request.vendorId ?? null,
    supersedes,
    request: request.question,
    answer,
  };
  return { record, recordSha256: recordSha256(record) };
}

/** The determination's row (with the case it opened, if any), and the keys a list change will find it by (party-keys.ts): `screened`, the names its check screened. */
export async function keepDetermination(
  trx: TenantTransaction,
  organizationId: string,
  stored: StoredDetermination,
  screened: readonly ScreenedName[],
  caseId: string | null = null,
) {
  await insertCheck(trx, organizationId, stored.record, stored.recordSha256, caseId);
  await insertPartyKeys(trx, organizationId, stored.record.id, partyKeys(screened, stored.record.answer.entities));
}
