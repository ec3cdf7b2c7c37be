/**
 * A case's status change, for what follows the case (visitor sessions): run by whatever changes
 * the status (a re-screen reopening it here, a disposition in adjudication) before it commits.
 */
import type { TransactionHook } from '../../events/transaction-hook.ts';
import type { Disposition } from './case-record.ts';

export type CaseStatusChange = {
  caseId: string /** Null for a case about an ownership determination. */;
  screeningId: string | null;
  source: string;
  from: string;
  to: string;
  disposition: Disposition | null;
};

export type CaseStatusHook = TransactionHook<CaseStatusChange>;
