/**
 * Organizations for a benchmark, made in process on the benchmark's database as an operator makes
 * them (Enterprise tier, the rate limit raised out of the way so the limiter does not shape the
 * run), each with an API key (standard unless asked for an admin one): a thousand organizations take seconds this way, where the
 * CLI would take a process each.
 */
import type { AuditContext } from '../../src/audit/audit.ts';
import { createApiKeyService } from '../../src/auth/api-key-service.ts';
import type { Database } from '../../src/db/database.ts';
import { RATE_LIMIT_OUT_OF_THE_WAY } from './prepared-service.ts';

export type BenchOrganization = { id: string; apiKey: string; keyId: string };

/** `count` organizations named `label NN`, each with a key named after the benchmark. */
export async function createOrganizations(db: Database, count: number, label: string, benchmark: string, admin = false): Promise<BenchOrganization[]> {
  const keys = createApiKeyService(db.withTenant);
  const organizations: BenchOrganization[] = [];
  const width = String(count).length;
  for (let n = 0; n < count; n++) {
    const org = await db.operator.createOrganization({ name: `${label} ${String(n + 1).padStart(width, '0')}`, tier: 'enterprise' });
    await db.operator.updateOrganization(org.id, { rate_limit_per_second: RATE_LIMIT_OUT_OF_THE_WAY });
    const operator: AuditContext = { actor: { organizationId: org.id, kind: 'system', id: benchmark, role: null }, requestId: null, sourceIp: null };
    const { key, record } = await keys.create(operator, { name: benchmark, environment: 'live', admin });
    organizations.push({ id: org.id, apiKey: key, keyId: record.id });
  }
  return organizations;
}
