/**
 * Organizations and API keys made the way operators make them (as the owner), and people's JWTs
 * issued the way an integration's admin key issues them, for tests that call the API as a real
 * caller would.
 */
import { displayPrefix, generateApiKey, hashApiKey, type KeyEnvironment } from '../../src/auth/api-key-format.ts';
import { loadSigningKey } from '../../src/auth/token-keys.ts';
import { createTokenService } from '../../src/auth/tokens.ts';
import type { Database } from '../../src/db/database.ts';
import type { Tier } from '../../src/db/schema.ts';
import type { Role } from '../../src/http/actor.ts';
import { newId } from '../../src/ids.ts';
import type { OwnerSql } from './test-database.ts';

export type TestTenant = { organizationId: string; keyId: string; key: string; headers: { authorization: string } };

export async function createOrganization(owner: OwnerSql, options: { name?: string; tier?: Tier } = {}): Promise<string> {
  const id = newId('org');
  await owner('INSERT INTO organizations (id, name, tier) VALUES ($1, $2, $3)', [id, options.name ?? 'Test organization', options.tier ?? 'enterprise']);
  return id;
}

export async function createKey(
  owner: OwnerSql,
  organizationId: string,
  options: { admin?: boolean; environment?: KeyEnvironment; state?: 'active' | 'disabled' | 'revoked' } = {},
): Promise<{ keyId: string; key: string; headers: { authorization: string } }> {
  const key = generateApiKey(options.environment ?? 'live');
  const keyId = newId('key');
  await owner(
    `INSERT INTO api_keys (organization_id, id, name, environment, scope, display_prefix, secret_hash, state, created_by)
     VALUES ($1, $2, 'test key', $3, $4, $5, $6, $7, 'test')`,
    [
      organizationId,
      keyId,
      options.environment ?? 'live',
      options.admin ? 'admin' : 'standard',
      displayPrefix(key),
      hashApiKey(key),
      options.state ?? 'active',
    ],
  );
  return { keyId, key, headers: { authorization: `Bearer ${key}` } };
}

/** An organization with one key. */
export async function createTenant(owner: OwnerSql, options: { tier?: Tier; admin?: boolean } = {}): Promise<TestTenant> {
  const organizationId = await createOrganization(owner, options);
  return { organizationId, ...(await createKey(owner, organizationId, options)) };
}

/** Headers carrying a JWT for a person of this organization (the subject is the person's identity, e.g. an email). */
export async function personHeaders(db: Database, organizationId: string, role: Role, subject = `${role}@example.com`): Promise<{ authorization: string }> {
  const tokens = createTokenService(db, await loadSigningKey(db));
  const issuer = { actor: { organizationId, kind: 'system' as const, id: 'test', role: null }, requestId: null, sourceIp: null };
  return { authorization: `Bearer ${(await tokens.issue(issuer, { subject, role })).token}` };
}
