/**
 * Turns an Authorization header into the caller, or refuses it with the precise reason.
 * API keys (`gk_…`) are checked by checksum first, so a mistyped key costs no database look-up;
 * anything else is taken for a JWT.
 */
import type { Database } from '../db/database.ts';
import type { RequestActor } from '../http/actor.ts';
import { looksLikeApiKey, parseApiKey } from './api-key-format.ts';
import { type KeyAuthentication, touchKey } from './api-key-store.ts';
import { organizationSuspended, refuseCredential } from './credential-refusal.ts';
import { type RequestContext, recordFailedAuthentication } from './failed-authentication.ts';
import type { TokenService } from './tokens.ts';

export type Authenticator = (authorization: string | undefined, context: RequestContext) => Promise<RequestActor>;

/** last_used_at is kept to the minute: one write a minute per key, not one per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function createAuthenticator(db: Database, tokens: TokenService): Authenticator {
  return async (authorization, context) => {
    const credential = /^Bearer +([^ ]+) *$/i.exec(authorization ?? '')?.[1];
    if (!credential) {
      throw refuseCredential('unauthenticated', 'Send a credential as "Authorization: Bearer <API key or token>".');
    }
    if (!looksLikeApiKey(credential)) return tokens.authenticate(credential, context);
    const parsed = parseApiKey(credential);
    if (!parsed) throw refuseCredential('unauthenticated', 'The API key is malformed (its checksum does not match): check for a copying error.');
    const key = await db.lookUpApiKey(parsed.hash);
    if (!key) throw refuseCredential('unauthenticated', 'The API key is not known.');
    return admitKey(db, key, context);
  };
}

async function admitKey(db: Database, key: KeyAuthentication, context: RequestContext): Promise<RequestActor> {
  const refusal =
    key.key_state === 'revoked'
      ? refuseCredential('key_revoked', 'The API key was revoked. Create a new key.')
      : key.key_state === 'disabled'
        ? refuseCredential('key_disabled', 'The API key is disabled. An administrator can enable it again.')
        : key.organization_state === 'suspended'
          ? organizationSuspended()
          : undefined;
  if (refusal) {
    await recordFailedAuthentication(db, { organizationId: key.organization_id, kind: 'api_key', id: key.key_id }, refusal.code, context);
    throw refusal;
  }
  const actor: RequestActor = {
    organizationId: key.organization_id,
    kind: 'api_key',
    id: key.key_id,
    tier: key.tier,
    admin: key.scope === 'admin',
    environment: key.environment,
    ...(key.rate_limit_per_second !== null && { rateLimitPerSecond: key.rate_limit_per_second }),
  };
  const lastUsed = key.last_used_at?.getTime() ?? 0;
  if (Date.now() - lastUsed > LAST_USED_RESOLUTION_MS) {
    await db.withTenant(actor, (trx) => touchKey(trx, key.key_id));
  }
  return actor;
}
