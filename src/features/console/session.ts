/**
 * The console's session: the same JWT people use on the API (src/auth/tokens.ts), carried in an
 * HttpOnly, SameSite=Strict cookie that lives no longer than the token, which the organization's
 * session policy bounds. Every console request re-checks the token (signature, expiry, sign-out,
 * suspended organization) and that the person is still an active user with the same role, so
 * disabling someone ends their session at their next click.
 *
 * With Secure cookies the names take the `__Host-` prefix: the browser then refuses them from a
 * sibling subdomain or for another path, so nobody can plant a session or a CSRF secret.
 */
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TokenService } from '../../auth/tokens.ts';
import { auditContextOf } from '../../http/audit-context.ts';
import { isAppError } from '../../http/errors.ts';
import type { Api } from '../../http/feature.ts';
import { authorizeRoute, requireDeclaredAccess } from '../../http/permissions.ts';
import { href } from './html.ts';
import type { SignedIn, UserService } from './users/user-service.ts';

export type ConsoleCookies = { session: string; csrf: string; options: CookieSerializeOptions };

export function consoleCookies(secure: boolean): ConsoleCookies {
  const options = { httpOnly: true, sameSite: 'strict' as const, secure };
  return secure
    ? { session: '__Host-gatehouse_session', csrf: '__Host-gatehouse_csrf', options: { ...options, path: '/' } }
    : { session: 'gatehouse_session', csrf: 'gatehouse_csrf', options: { ...options, path: '/console' } };
}

/** Why the sign-in page is shown, in words for the person: only these, so a link cannot put other words there. */
export const SIGN_IN_NOTICES = {
  signed_out: 'You are signed out.',
  expired: 'Your session has ended. Sign in again.',
} as const;
export type SignInNotice = keyof typeof SIGN_IN_NOTICES;

/** Only a console page of this server may be where sign-in leads back to. */
export const safeNext = (next: string | undefined) => (next && /^\/console(\/[A-Za-z0-9_\-./?=&%]*)?$/.test(next) && !next.includes('//') ? next : '/console');

const origin = (request: FastifyRequest) => ({ requestId: String(request.id), sourceIp: request.ip });

export function createSessions(tokens: TokenService, users: UserService, cookies: ConsoleCookies) {
  const endSession = (reply: FastifyReply) => reply.clearCookie(cookies.session, cookies.options);

  /**
   * The person this request's cookie signs in; undefined without a cookie; 'refused' when its token
   * or its person no longer holds (expired, signed out, organization suspended, disabled, role changed).
   */
  async function resolve(request: FastifyRequest) {
    const token = request.cookies[cookies.session];
    if (!token) return undefined;
    let actor;
    try {
      actor = await tokens.authenticate(token, origin(request));
    } catch (error) {
      if (isAppError(error)) return 'refused' as const;
      throw error;
    }
    const user = await users.activeUser(actor);
    // Disabled, or given another role since this token was issued: the token no longer describes them.
    if (!user || user.role !== actor.role) return 'refused' as const;
    return { actor, viewer: { ...user, tier: actor.tier } };
  }

  return {
    /** Authenticates every console route that is not `config.public`; a stranger is sent to sign in. */
    install(api: Api) {
      // As on the API: a page that does not say who may see it does not start.
      api.addHook('onRoute', (route) => void requireDeclaredAccess(route));
      api.addHook('onRequest', async (request, reply) => {
        if (request.routeOptions.config.public) return;
        const found = await resolve(request);
        if (found === undefined || found === 'refused') {
          if (found === 'refused') endSession(reply);
          const next = request.method === 'GET' ? request.url : undefined;
          return reply.redirect(href('/console/sign-in', { next, notice: found === 'refused' ? 'expired' : undefined }), 303);
        }
        request.actor = found.actor;
        request.viewer = found.viewer;
        authorizeRoute(request);
      });
    },

    /** Issues the person's token (within the session policy) and sets it as the session cookie. */
    async start(request: FastifyRequest, reply: FastifyReply, person: SignedIn) {
      const context = { actor: { organizationId: person.organizationId, kind: 'user' as const, id: person.email, role: person.role }, ...origin(request) };
      const issued = await tokens.issue(context, { subject: person.email, role: person.role });
      const maxAge = Math.max(1, Math.floor((Date.parse(issued.expires_at) - Date.now()) / 1000));
      reply.setCookie(cookies.session, issued.token, { ...cookies.options, maxAge });
    },

    /** Revokes the token (refused from now on, wherever it is presented) and clears the cookie. */
    async end(request: FastifyRequest, reply: FastifyReply) {
      const token = request.actor?.token;
      if (token) await tokens.revoke(auditContextOf(request), token);
      endSession(reply);
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
