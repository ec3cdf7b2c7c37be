/**
 * What a feature contributes for its subjects to be watched: a page of them in id order, and what
 * to remember when a re-screen found something. Features contribute through the service registry
 * (`services.extend('monitoring.sources', …)`), so monitoring knows no other feature's tables.
 */
import type { AuditContext } from '../../audit/audit.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import type { Services } from '../../http/services.ts';

/** What the screening pipeline takes for one subject. */
export type SubjectInput = Parameters<Services['screenings']['screenMany']>[2][number];

export type MonitoredSubject = {
  id: string;
  input: SubjectInput;
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

declare module '../../http/services.ts' {
  interface Extensions {
    'monitoring.sources': MonitoringSource;
  }
}
