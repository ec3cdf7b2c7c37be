/**
 * The adjudication cases stored determinations open, per the rules' `ownership.open_case_on`: a
 * check kept on record opens one in the transaction that stores it, and a re-evaluation that
 * changes the verdict moves the case to the new determination, reopening a decided one when the
 * rules name the new status (cases/determination-case.ts keeps the case; this says what of a
 * determination it reads). Each determination names its case, so the chain of superseding
 * determinations and the case follow the same target.
 */
import type { AuditContext } from '../../audit/audit.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import { newId } from '../../ids.ts';
import { type CaseDeterminations, type DeterminationForCase, followDetermination, openDeterminationCase, opensCase } from '../cases/determination-case.ts';
import type { VersionedRules } from '../cases/rules.ts';
import type { CaseStatusHook } from '../cases/status-hook.ts';
import { presentStoredCheck } from './check-present.ts';
import type { OwnershipCheckRecord } from './check-record.ts';
import { findCheck, listChecks, setCheckCase } from './check-store.ts';
import { bisVerdictWords, ofacVerdictWords } from './evidence/ownership-words.ts';

/** What a case reads of a determination: its status, the lists and programs that decided it, how sure the screening was, each rule's verdict in words. */
export function determinationForCase(record: OwnershipCheckRecord): DeterminationForCase {
  const { answer } = record;
  const designations = answer.entities.flatMap((entity) => entity.designations);
  const counted = answer.entities.flatMap((entity) => (entity.screening_matches ?? []).filter((m) => 'counted' in m && m.counted));
  const given = designations.some((d) => d.source === 'given');
  return {
    id: record.id,
    status: record.status,
    lists: [...new Set(designations.map((d) => d.list))],
    programs: [...new Set(designations.flatMap((d) => d.programs ?? []))],
    score: given ? 1 : Math.max(0, ...counted.map((m) => m.score)),
    reasons: [`OFAC 50 Percent Rule: ${ofacVerdictWords(answer.ofac)}`, `BIS Affiliates Rule: ${bisVerdictWords(answer.bis, answer.as_of)}`],
  };
}

/** A determination just kept on record: the case its status opens under the rules, if any (its id, recorded on the determination). */
export function openCaseFor(trx: TenantTransaction, context: AuditContext, record: OwnershipCheckRecord, rules: VersionedRules, now: Date): string | null {
  if (!opensCase(rules.rules, record.status)) return null;
  const caseId = newId('case', now.getTime());
  openDeterminationCase(trx, context, caseId, { determination: determinationForCase(record), rules: rules.rules, rulesVersion: rules.version, now });
  return caseId;
}

export type ChangedVerdict = { determination: OwnershipCheckRecord; previous: OwnershipCheckRecord; previousCaseId: string | null };

/**
 * A re-evaluation changed a determination's verdict: the previous determination's case follows
 * the new one (reopened when the rules name its status), or a new case opens when there was none
 * and the rules name the status. Answers the case the new determination names, if any.
 */
export async function caseForChangedVerdict(
  trx: TenantTransaction,
  context: AuditContext,
  change: ChangedVerdict,
  on: { rules: VersionedRules; statusChanged: Pick<CaseStatusHook, 'run'>; now: Date },
): Promise<string | null> {
  const { determination, previous, previousCaseId } = change;
  const caseId = previousCaseId ? previousCaseId : opensCase(on.rules.rules, determination.status) ? newId('case', on.now.getTime()) : null;
  if (!caseId) return null;
  const toCase = { determination: determinationForCase(determination), rules: on.rules.rules, rulesVersion: on.rules.version, now: on.now };
  if (previousCaseId) await followDetermination(trx, context, on.statusChanged, caseId, { ...toCase, previousId: previous.id });
  else openDeterminationCase(trx, context, caseId, toCase);
  await setCheckCase(trx, determination.id, caseId);
  return caseId;
}

/** How adjudication shows a determination's case: the determination as GET /ownership/checks/{id} does, and its target as the queue's subject. */
export const caseDeterminations: CaseDeterminations = {
  async present(trx, id) {
    const found = await findCheck(trx, id);
    return found ? presentStoredCheck(found) : null;
  },
  async subjects(trx, ids) {
    const rows = await listChecks(trx, { ids }, { limit: ids.length });
    return new Map(rows.map((row) => [row.id, { company: row.target_name, target_id: row.target_id, ownership_status: row.status }]));
  },
};
