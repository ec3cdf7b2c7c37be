/**
 * Monitoring's two steps across organizations, each one statement whatever the number of
 * organizations: which organizations have a run to claim (every serving process asks at every
 * poll), and queueing a list version's run in every organization. Both run in a transaction for
 * no organization, through functions of the owner's (migration 0054) that answer organization
 * ids or a count, nothing of an organization's data; claiming and working a run stay in that
 * organization's tenant transaction, under row-level security.
 */
import { sql } from 'kysely';
import type { Actor, WithTenant } from '../../db/tenant.ts';
import { type NewRun, queuedRun } from './store.ts';

/** Who polls and queues: no organization (the functions refuse to run inside one's transaction). */
const acrossOrganizations: Actor = { organizationId: '', kind: 'system', id: 'monitoring' };

/** The organizations with a run queued, or running with a lease that ran out by `now`: the one waiting longest first. */
export async function organizationsWithClaimableRuns(withTenant: WithTenant, now: Date): Promise<string[]> {
  return withTenant(acrossOrganizations, async (trx) => {
    const { rows } = await sql<{ organization_id: string }>`SELECT organization_id FROM monitoring_organizations_due(${now})`.execute(trx);
    return rows.map((r) => r.organization_id);
  });
}

/**
 * Queues `run` in each organization (`runs` pairs an organization with the id of its run), unless
 * it has the run for that version already; answers how many were queued.
 */
export async function queueRunEverywhere(withTenant: WithTenant, runs: { organizationId: string; id: string }[], run: NewRun): Promise<number> {
  if (runs.length === 0) return 0;
  return withTenant(acrossOrganizations, async (trx) => {
    const { rows } = await sql<{ queued: number }>`
      SELECT queue_monitoring_runs(${runs.map((r) => r.organizationId)}::text[], ${runs.map((r) => r.id)}::text[], ${JSON.stringify(queuedRun(run))}::jsonb) AS queued`.execute(
      trx,
    );
    return Number(rows[0]?.queued ?? 0);
  });
}
