/**
 * A newcomer's first start: an empty embedded database gets a sandbox organization and one admin
 * sandbox key, so the API can be called at once. Never on PostgreSQL, never on a database that
 * already has organizations.
 */
import type { Database } from '../db/database.ts';
import { createApiKeyService } from './api-key-service.ts';

export async function bootstrapSandbox(db: Database): Promise<{ organizationId: string; key: string } | undefined> {
  if ((await db.operator.listOrganizations()).length > 0) return undefined;
  const organization = await db.operator.createOrganization({ name: 'Sandbox', tier: 'enterprise' });
  const context = {
    actor: { organizationId: organization.id, kind: 'system' as const, id: 'sandbox-bootstrap', role: null },
    requestId: null,
    sourceIp: null,
  };
  const { key } = await createApiKeyService(db.withTenant).create(context, { name: 'sandbox', environment: 'test', admin: true });
  return { organizationId: organization.id, key };
}
