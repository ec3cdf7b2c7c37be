/**
 * JWTs for people in interactive admin flows. Claims: `sub` (the person), `org`, `role`, `iat`,
 * `exp`, `jti`. Verification pins the algorithm, checks issuer and audience, and refuses a token
 * whose lifetime exceeds its organization's session policy or whose `jti` was logged out.
 */
import { createHash, randomUUID } from 'node:crypto';
import { decodeJwt, errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify, SignJWT } from 'jose';
import { type AuditContext, recordAudit } from '../audit/audit.ts';
import type { Database } from '../db/database.ts';
import type { RequestActor, Role } from '../http/actor.ts';
import { AppError } from '../http/errors.ts';
import { organizationSuspended, refuseCredential } from './credential-refusal.ts';
import { type RequestContext, recordFailedAuthentication } from './failed-authentication.ts';
import { type SigningKey, TOKEN_ALGORITHM } from './token-keys.ts';

export const OWN_ISSUER = 'gatehouse';
export const OWN_AUDIENCE = 'gatehouse-api';
export const ROLES: readonly Role[] = ['admin', 'adjudicator', 'viewer'];
/** Accepted from an external identity provider: asymmetric algorithms only, never `none` or HMAC. */
const EXTERNAL_ALGORITHMS = ['EdDSA', 'ES256', 'RS256'];
const CLOCK_TOLERANCE_SECONDS = 30;

export type ExternalIdentityProvider = { keys: JWTVerifyGetKey; issuer: string; audience: string };

export type TokenClaims = { sub: string; org: string; role: Role; iat: number; exp: number; jti: string };

const jtiHash = (jti: string) => createHash('sha256').update(jti).digest();

export function createTokenService(db: Database, signingKey: SigningKey, external?: ExternalIdentityProvider) {
  // A token was presented, so every refusal says the token is invalid (RFC 6750).
  const refuse = (detail: string) => refuseCredential('unauthenticated', detail, true);

  async function verifySignature(token: string): Promise<JWTPayload> {
    let issuer: unknown;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      throw refuse('The credential is neither a Gatehouse API key nor a readable JWT.');
    }
    const options = { requiredClaims: ['sub', 'org', 'role', 'iat', 'exp', 'jti'], clockTolerance: CLOCK_TOLERANCE_SECONDS };
    try {
      if (issuer === OWN_ISSUER) {
        const { payload } = await jwtVerify(token, signingKey.publicKey, {
          ...options,
          algorithms: [TOKEN_ALGORITHM],
          issuer: OWN_ISSUER,
          audience: OWN_AUDIENCE,
        });
        return payload;
      }
      if (external && issuer === external.issuer) {
        const { payload } = await jwtVerify(token, external.keys, {
          ...options,
          algorithms: EXTERNAL_ALGORITHMS,
          issuer: external.issuer,
          audience: external.audience,
        });
        return payload;
      }
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw refuseCredential('token_expired', 'The token has expired; sign in again.');
      if (error instanceof errors.JOSEError) throw refuse(`The token is not valid (${error.code}).`);
      throw error;
    }
    throw refuse('The token was not issued by an issuer this service trusts.');
  }

  return {
    /** Signs a token for a person; its lifetime defaults to, and may not exceed, the session policy. */
    async issue(context: AuditContext, input: { subject: string; role: Role; ttlSeconds?: number }) {
      const organization = await db.operator.findOrganization(context.actor.organizationId);
      if (!organization) throw new AppError('not_found', `There is no organization ${context.actor.organizationId}.`);
      const ttl = input.ttlSeconds ?? organization.session_max_seconds;
      if (ttl < 1 || ttl > organization.session_max_seconds) {
        throw new AppError('validation_failed', `The lifetime must be 1 to ${organization.session_max_seconds} seconds (the session policy).`);
      }
      const jti = randomUUID();
      const issuedAt = Math.floor(Date.now() / 1000);
      const token = await new SignJWT({ org: organization.id, role: input.role })
        .setProtectedHeader({ alg: TOKEN_ALGORITHM, kid: signingKey.kid, typ: 'JWT' })
        .setIssuer(OWN_ISSUER)
        .setAudience(OWN_AUDIENCE)
        .setSubject(input.subject)
        .setJti(jti)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ttl)
        .sign(signingKey.privateKey);
      await db.withTenant(context.actor, async (trx) =>
        recordAudit(trx, context, {
          action: 'token.issued',
          target: { type: 'user', id: input.subject },
          details: { role: input.role, jti, ttl_seconds: ttl },
        }),
      );
      return { token, jti, expires_at: new Date((issuedAt + ttl) * 1000).toISOString() };
    },

    /** The person behind a token, or the precise reason it is refused. */
    async authenticate(token: string, context: RequestContext): Promise<RequestActor> {
      const claims = (await verifySignature(token)) as Partial<TokenClaims>;
      const { sub, org, role, iat, exp, jti } = claims;
      if (typeof sub !== 'string' || typeof org !== 'string' || typeof jti !== 'string' || !ROLES.includes(role as Role)) {
        throw refuse('The token lacks a valid sub, org, role or jti claim.');
      }
      const actor = { organizationId: org, kind: 'user' as const, id: sub };
      const found = await db.withTenant(actor, async (trx) => {
        const organization = await trx.selectFrom('organizations').select(['tier', 'state', 'session_max_seconds', 'rate_limit_per_second']).executeTakeFirst();
        const revoked = await trx.selectFrom('revoked_tokens').select('jti_hash').where('jti_hash', '=', jtiHash(jti)).executeTakeFirst();
        return { organization, revoked: revoked !== undefined };
      });
      if (!found.organization) throw refuse('The token names an organization that does not exist.');
      const policy = found.organization.session_max_seconds;
      const [reason, refusal] =
        (exp as number) - (iat as number) > policy
          ? ['token_over_session_policy', refuse(`The token lives longer than the organization's session policy allows (${policy} s).`)]
          : found.revoked
            ? ['token_signed_out', refuse('The token was signed out.')]
            : found.organization.state === 'suspended'
              ? ['organization_suspended', organizationSuspended()]
              : [undefined, undefined];
      if (reason && refusal) {
        await recordFailedAuthentication(db, actor, reason, context);
        throw refusal;
      }
      const limit = found.organization.rate_limit_per_second;
      return {
        ...actor,
        tier: found.organization.tier,
        admin: role === 'admin',
        role: role as Role,
        token: { jti, expiresAt: new Date((exp as number) * 1000) },
        ...(limit !== null && { rateLimitPerSecond: limit }),
      };
    },

    /** Signs a token out: it is refused from now until it would have expired anyway. */
    async revoke(context: AuditContext, token: { jti: string; expiresAt: Date }) {
      await db.withTenant(context.actor, async (trx) => {
        await trx.deleteFrom('revoked_tokens').where('expires_at', '<', new Date()).execute();
        await trx
          .insertInto('revoked_tokens')
          .values({ organization_id: context.actor.organizationId, jti_hash: jtiHash(token.jti), expires_at: token.expiresAt })
          .onConflict((oc) => oc.columns(['organization_id', 'jti_hash']).doNothing())
          .execute();
        recordAudit(trx, context, { action: 'token.revoked', target: { type: 'user', id: context.actor.id }, details: { jti: token.jti } });
      });
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
