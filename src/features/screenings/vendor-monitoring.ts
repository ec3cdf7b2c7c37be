/**
 * Vendors, as continuous monitoring watches them: each one, screened as the organization it is.
 */
import type { MonitoringSource } from './monitoring-source.ts';
import { recordVendorRescreen, watchedVendors } from './store.ts';

export const vendorMonitoring: MonitoringSource = {
  kind: 'vendor',
  async subjects(trx, afterId, limit) {
    return (await watchedVendors(trx, afterId, limit)).map((v) => ({
      id: v.id,
      input: {
        company: v.name,
        type: 'organization' as const,
        ...(v.country && { country: v.country }),
        ...(v.identifiers.length > 0 && { identifiers: v.identifiers }),
      },
      caseId: v.case_id,
      screenedAt: v.updated_at,
    }));
  },
  async recordRescreen(trx, _context, vendorId, finding) {
    await recordVendorRescreen(trx, vendorId, finding.screeningId);
  },
};
