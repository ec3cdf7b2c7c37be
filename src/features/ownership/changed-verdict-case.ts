/**
 * SEAM, issue 29: the adjudication case a re-evaluation that changed a determination's verdict
 * opens, or reopens, per the organization's rules (`ownership.open_case_on`), in the transaction
 * that stores the new determination (reevaluate-check.ts calls it there). Case opening for
 * determinations is not built yet: this opens nothing, and the new determination is stored
 * without a case. When it is, it answers the case's id and the caller records it on the row.
 */
import type { AuditContext } from '../../audit/audit.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import type { OwnershipCheckRecord } from './check-record.ts';

export type ChangedVerdict = { determination: OwnershipCheckRecord; previous: OwnershipCheckRecord; previousCaseId: string | null };

export async function caseForChangedVerdict(_trx: TenantTransaction, _context: AuditContext, _change: ChangedVerdict): Promise<string | null> {
  return null;
}
