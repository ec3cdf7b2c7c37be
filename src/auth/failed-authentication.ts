/**
 * A refused credential whose organization is known (a disabled or revoked key, a signed-out token,
 * a suspended organization) is recorded in that organization's audit trail: who tried, from where,
 * and why, never the credential itself. An unknown or malformed credential belongs to nobody we
 * can tell, so it is only counted against its source address (see rate-limit.ts).
 */
import { recordAudit } from '../audit/audit.ts';
import type { Database } from '../db/database.ts';
import type { Actor } from '../db/tenant.ts';

export type RequestContext = { requestId: string; sourceIp: string };

export async function recordFailedAuthentication(db: Database, actor: Actor, reason: string, context: RequestContext) {
  await db.withTenant(actor, async (trx) =>
    recordAudit(trx, { actor: { ...actor, role: null }, ...context }, { action: 'authentication.failed', outcome: 'failure', details: { reason } }),
  );
}
