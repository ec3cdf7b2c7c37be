/**
 * The case's current disposition on the evidence's first page, in words: what was decided, when
 * and by whom, or that nothing is decided yet. The outcome alone ("potential match") says what
 * screening found; an auditor reading page 1 must not take a decided case for an open one.
 */
import type { EvidenceInput } from './evidence-input.ts';
import { actorWords } from './record-sections.ts';

/** Undefined for a clear screening without a case: there is nothing to decide. */
export function dispositionWords({ screening, adjudication }: EvidenceInput): string | undefined {
  if (!adjudication) return screening.outcome === 'potential_match' ? 'none: no case was opened' : undefined;
  const { status, status_since: since, case_id: caseId } = adjudication;
  const inCase = ` (case ${caseId})`;
  if (!since) return `${status}${inCase}`;
  if (since.disposition) {
    return `${status}, decided ${since.at} by ${actorWords(since.actor)}${inCase}${status === 'ESCALATED' ? ': awaits a senior decision' : ''}`;
  }
  return `none yet: the case is ${status} since ${since.at}, to be adjudicated${inCase}`;
}
