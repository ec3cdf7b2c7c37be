/**
 * The people who use the console: created by an operator with a one-time password-setup link,
 * signing in with a password (scrypt, locked for a while after repeated failures), disabled when
 * they leave. Every change and every sign-in, refused or not, is audited in the organization's
 * trail. Hashing happens outside any transaction: it takes a while, and a transaction held open
 * on the embedded database would hold up every other request.
 */
import { randomBytes } from 'node:crypto';
import { type AuditContext, recordAudit } from '../../../audit/audit.ts';
import { hashPassword, passwordProblem, verifyNobody, verifyPassword } from '../../../auth/passwords.ts';
import type { Actor, TenantTransaction, WithTenant } from '../../../db/tenant.ts';
import type { Role } from '../../../http/actor.ts';
import { AppError } from '../../../http/errors.ts';
import { newId } from '../../../ids.ts';
import { sha256Hex } from '../../../sha256.ts';
import {
  countFailedSignIn,
  findUser,
  findUserByEmail,
  insertUser,
  listUsers,
  locateByEmail,
  locateBySetupToken,
  lockSetupToken,
  type UserRecord,
  type UserState,
  updateUser,
} from './user-store.ts';

/** How long a password-setup link stays usable. */
export const SETUP_LINK_HOURS = 72;
/** Failed sign-ins in a row that lock an account, and for how long. */
export const SIGN_IN_ATTEMPTS = 5;
export const LOCK_MINUTES = 15;

/** Where a request comes from, for the audit trail of the person acting before they have a session. */
export type Origin = { requestId: string; sourceIp: string };
export type SignedIn = { organizationId: string; email: string; role: Role };

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const WRONG = 'The email address or password is not right.';

export function createUserService(withTenant: WithTenant) {
  const asPerson = (organizationId: string, user: Pick<UserRecord, 'email' | 'role'>, origin: Origin): AuditContext => ({
    actor: { organizationId, kind: 'user', id: user.email, role: user.role },
    ...origin,
  });
  const audit = (
    trx: TenantTransaction,
    context: AuditContext,
    action: string,
    user: Pick<UserRecord, 'id' | 'email'>,
    extra: { outcome?: 'failure'; details?: Record<string, unknown> } = {},
  ) =>
    recordAudit(trx, context, {
      action: `console_user.${action}`,
      target: { type: 'console_user', id: user.id },
      ...extra,
      details: { email: user.email, ...extra.details },
    });

  /** A fresh setup token (returned once) and what is stored of it. */
  const newSetupToken = (now: Date) => {
    const token = randomBytes(32).toString('base64url');
    return { token, stored: { setup_token_sha256: sha256Hex(token), setup_expires_at: new Date(now.getTime() + SETUP_LINK_HOURS * 3_600_000) } };
  };

  async function existing(trx: TenantTransaction, email: string): Promise<UserRecord> {
    const user = await findUserByEmail(trx, email);
    if (!user) throw new AppError('not_found', `There is no console user ${email} in this organization.`);
    return user;
  }

  return {
    async create(context: AuditContext, input: { email: string; role: Role }, now = new Date()): Promise<{ user: UserRecord; setupToken: string }> {
      const email = checkedEmail(input.email);
      const { token, stored } = newSetupToken(now);
      try {
        return await withTenant(context.actor, async (trx) => {
          const user = await insertUser(trx, {
            organization_id: context.actor.organizationId,
            id: newId('usr'),
            email,
            role: input.role,
            ...stored,
            created_by: `${context.actor.kind}:${context.actor.id}`,
          });
          await audit(trx, context, 'created', user, { details: { role: user.role, setup_expires_at: stored.setup_expires_at.toISOString() } });
          return { user, setupToken: token };
        });
      } catch (error) {
        if ((error as { code?: string }).code !== '23505') throw error;
        throw new AppError('conflict', `${email} already signs in to an organization; an address signs in to one only.`);
      }
    },

    /** A new setup link (the old one stops working); also lifts a lock. For a forgotten password. */
    issueSetupLink(context: AuditContext, email: string, now = new Date()): Promise<{ user: UserRecord; setupToken: string }> {
      return withTenant(context.actor, async (trx) => {
        const { token, stored } = newSetupToken(now);
        const user = await updateUser(trx, (await existing(trx, email)).id, { ...stored, failed_sign_ins: 0, locked_until: null }, now);
        await audit(trx, context, 'setup_link_issued', user, { details: { setup_expires_at: stored.setup_expires_at.toISOString() } });
        return { user, setupToken: token };
      });
    },

    list: (context: AuditContext) => withTenant(context.actor, listUsers),

    setState(context: AuditContext, email: string, state: UserState, now = new Date()): Promise<UserRecord> {
      return withTenant(context.actor, async (trx) => {
        const user = await existing(trx, email);
        if (user.state === state) return user;
        const changed = await updateUser(trx, user.id, { state }, now);
        await audit(trx, context, state === 'active' ? 'enabled' : 'disabled', changed);
        return changed;
      });
    },

    /** The address a setup token was issued for, while it is valid; undefined otherwise. */
    async setupFor(token: string, now = new Date()): Promise<{ email: string } | undefined> {
      const sha256 = setupTokenSha256(token);
      const found = sha256 && (await locateBySetupToken(withTenant, sha256));
      if (!found) return undefined;
      const user = await withTenant(systemActor(found.organization_id), (trx) => findUser(trx, found.user_id));
      return user && user.state === 'active' && user.setup_expires_at && user.setup_expires_at > now ? { email: user.email } : undefined;
    },

    /** Sets the password of the person the token was issued to, and spends the token. */
    async completeSetup(token: string, password: string, origin: Origin, now = new Date()): Promise<SignedIn> {
      const sha256 = setupTokenSha256(token);
      const found = sha256 && (await locateBySetupToken(withTenant, sha256));
      const expired = () =>
        new AppError('not_found', 'This password-setup link is not valid: it was used already, replaced or expired. Ask an administrator for a new one.');
      if (!sha256 || !found) throw expired();
      const user = await withTenant(systemActor(found.organization_id), (trx) => findUser(trx, found.user_id));
      if (!user || user.state !== 'active' || !user.setup_expires_at || user.setup_expires_at <= now) throw expired();
      const problem = passwordProblem(password, user.email);
      if (problem) throw new AppError('validation_failed', `The password ${problem}.`, { errors: [{ pointer: '/password', detail: problem, in: 'body' }] });
      const hash = await hashPassword(password);
      return withTenant(systemActor(found.organization_id), async (trx) => {
        // The token may have been spent or replaced while the hash was being computed.
        const still = await lockSetupToken(trx, user.id, sha256);
        if (!still?.setup_expires_at || still.setup_expires_at <= now) throw expired();
        const changed = await updateUser(
          trx,
          user.id,
          { password_hash: hash, password_set_at: now, setup_token_sha256: null, setup_expires_at: null, failed_sign_ins: 0, locked_until: null },
          now,
        );
        await audit(trx, asPerson(found.organization_id, changed, origin), 'password_set', changed);
        return { organizationId: found.organization_id, email: changed.email, role: changed.role };
      });
    },

    /** The person, if the address and password are right and the account may sign in; otherwise a refusal that says as little as it can. */
    async signIn(email: string, password: string, origin: Origin, now = new Date()): Promise<SignedIn> {
      const found = await locateByEmail(withTenant, email.trim());
      if (!found) {
        await verifyNobody(password);
        throw new AppError('unauthenticated', WRONG);
      }
      const organizationId = found.organization_id;
      const [user, organization] = await withTenant(
        systemActor(organizationId),
        async (trx) => [await findUser(trx, found.user_id), await trx.selectFrom('organizations').select('state').executeTakeFirst()] as const,
      );
      if (!user) throw new AppError('unauthenticated', WRONG);
      /** Records the refusal (counting a wrong password towards the lock) and throws it. */
      const refuse = async (reason: string, detail = WRONG): Promise<never> => {
        await withTenant(systemActor(organizationId), async (trx) => {
          await audit(trx, asPerson(organizationId, user, origin), 'sign_in_failed', user, { outcome: 'failure', details: { reason } });
          if (reason === 'wrong_password') await countFailure(trx, asPerson(organizationId, user, origin), user, now);
        });
        throw new AppError('unauthenticated', detail);
      };
      // The password is checked first, whatever the account's state, and a lock answers as a wrong password
      // does: neither the words nor the time taken tell whoever is trying that the account exists and is locked.
      const right = user.password_hash ? await verifyPassword(password, user.password_hash) : await verifyNobody(password);
      if (user.locked_until && user.locked_until > now) await refuse('locked');
      if (user.state !== 'active') await refuse('disabled');
      if (!user.password_hash) await refuse('no_password_set');
      if (!right) await refuse('wrong_password');
      if (organization?.state === 'suspended') await refuse('organization_suspended', 'Your organization is suspended: nobody in it can sign in.');
      await withTenant(systemActor(organizationId), async (trx) => {
        await updateUser(trx, user.id, { failed_sign_ins: 0, locked_until: null, last_sign_in_at: now }, now);
        await audit(trx, asPerson(organizationId, user, origin), 'signed_in', user);
      });
      return { organizationId, email: user.email, role: user.role };
    },

    /** The signed-in person as the console shows them, or undefined once they are disabled or gone. */
    activeUser(actor: Actor) {
      return withTenant(actor, async (trx) => {
        const user = await findUserByEmail(trx, actor.id);
        if (!user || user.state !== 'active') return undefined;
        const organization = await trx.selectFrom('organizations').select('name').executeTakeFirstOrThrow();
        return { email: user.email, role: user.role, organizationName: organization.name };
      });
    },
  };

  /** Counts a wrong password; the one that reaches the limit locks the account (audited). */
  async function countFailure(trx: TenantTransaction, context: AuditContext, user: UserRecord, now: Date) {
    if ((await countFailedSignIn(trx, user.id, now)) < SIGN_IN_ATTEMPTS) return;
    const lockedUntil = new Date(now.getTime() + LOCK_MINUTES * 60_000);
    await updateUser(trx, user.id, { failed_sign_ins: 0, locked_until: lockedUntil }, now);
    await audit(trx, context, 'locked', user, { details: { attempts: SIGN_IN_ATTEMPTS, locked_until: lockedUntil.toISOString() } });
  }
}

export type UserService = ReturnType<typeof createUserService>;

/** The stored form of a setup token; undefined for text that cannot be one. */
const setupTokenSha256 = (token: string) => (/^[A-Za-z0-9_-]{43}$/.test(token) ? sha256Hex(token) : undefined);

/** The console acting on a person's behalf before they have a session (reading their record to sign them in). */
const systemActor = (organizationId: string): Actor => ({ organizationId, kind: 'system', id: 'console' });

function checkedEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email)) {
    throw new AppError('validation_failed', `${raw} is not an email address.`, { errors: [{ pointer: '/email', detail: 'is not an email address' }] });
  }
  return email;
}
