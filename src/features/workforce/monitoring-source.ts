/**
 * Active workforce profiles, as continuous monitoring watches them.
 */
import { fromJson } from '../../db/json.ts';
import type { MonitoringSource } from '../screenings/monitoring-source.ts';
import type { Profile } from './profile-input.ts';
import { screeningInputOf } from './profile-input.ts';
import { recordRescreen } from './store.ts';

export const workforceMonitoring: MonitoringSource = {
  kind: 'workforce_profile',
  async subjects(trx, afterId, limit) {
    let query = trx.selectFrom('workforce_profiles').select(['id', 'external_id', 'profile', 'case_id', 'screened_at']).where('status', '=', 'active');
    if (afterId) query = query.where('id', '>', afterId);
    const rows = await query.orderBy('id').limit(limit).execute();
    return rows.map((row) => ({
      id: row.id,
      input: screeningInputOf(row.external_id, fromJson<Profile>(row.profile)),
      caseId: row.case_id,
      screenedAt: new Date(row.screened_at ?? 0),
    }));
  },
  async recordRescreen(trx, _context, subjectId, finding) {
    await recordRescreen(trx, subjectId, { id: finding.screeningId, outcome: finding.outcome, case_id: finding.caseId }, new Date());
  },
};
