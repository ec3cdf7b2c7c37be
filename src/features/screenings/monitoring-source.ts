/**
 * What a feature offers for its subjects to be watched by continuous monitoring
 * (src/features/monitoring): a page of them in id order, and what to remember when a re-screen
 * found something. The composition root (src/composition.ts) hands monitoring the sources in
 * order, so monitoring knows no other feature's tables. Declared here, in the lowest feature that
 * offers one (its vendors), so that monitoring and every feature offering one import it downwards.
 */
import type { AuditContext } from '../../audit/audit.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import type { ScreeningInput } from './screening-record.ts';

export type MonitoredSubject = {
  id: string;
  input: ScreeningInput;
  /** The subject's case, if any: a new match reopens it rather than opening another. */
  caseId: string | null;
  /** When the subject was last screened in full: a version imported before that is already in it. */
  screenedAt: Date;
};

export type RescreenFinding = { screeningId: string; caseId: string | null; outcome: 'clear' | 'potential_match' };

export type MonitoringSource = {
  /** workforce_profile, vendor, visitor_session. */
  kind: string;
  subjects(trx: TenantTransaction, afterId: string | null, limit: number): Promise<MonitoredSubject[]>;
  recordRescreen(trx: TenantTransaction, context: AuditContext, subjectId: string, finding: RescreenFinding): Promise<void>;
};
