/**
 * Signing in and out, and setting a password from the one-time link an operator handed out.
 * Failed sign-ins are limited per source address (AUTH_FAILURES_PER_MINUTE, counted as the API's
 * failed authentications are, in the same store, shared by every process on PostgreSQL) on top of
 * each account's own lock.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { PASSWORD_MIN_LENGTH } from '../../../auth/passwords.ts';
import type { Config } from '../../../config.ts';
import { AppError, isAppError } from '../../../http/errors.ts';
import type { Api } from '../../../http/feature.ts';
import type { LimitStore } from '../../../http/limit-store.ts';
import { failedAuthentications } from '../../../http/rate-limit.ts';
import { type Html, html } from '../html.ts';
import { csrfField, type Notice, sendPage } from '../layout.ts';
import { type Sessions, SIGN_IN_NOTICES, type SignInNotice, safeNext } from '../session.ts';
import type { UserService } from '../users/user-service.ts';

const upTo = (maxLength: number) => Type.String({ maxLength });
const SignInBody = Type.Object({ _csrf: upTo(200), email: upTo(254), password: upTo(1024), next: Type.Optional(upTo(500)) });
const SignInQuery = Type.Object({ next: Type.Optional(upTo(500)), notice: Type.Optional(Type.String({ enum: Object.keys(SIGN_IN_NOTICES) })) });
const SetupQuery = Type.Object({ token: Type.Optional(upTo(100)) });
const SetupBody = Type.Object({ _csrf: upTo(200), token: upTo(100), username: Type.Optional(upTo(254)), password: upTo(1024), confirm: upTo(1024) });

/** A labelled input on a line of its own, named as its id. */
const field = (id: string, label: string, attributes: Html) => html`<p><label for="${id}">${label}</label>
<input id="${id}" name="${id}" ${attributes}></p>`;

/** A page that is one short form (signing in, setting a password), with its CSRF token. */
function formPage(request: FastifyRequest, reply: FastifyReply, page: { title: string; action: string } & Shown, fields: Html, after?: Html) {
  return sendPage(request, reply, {
    ...page,
    body: html`<form class="stack narrow" method="post" action="${page.action}">
${csrfField(request, reply)}
${fields}
</form>
${after}`,
  });
}

/** How a form page is shown again: with a notice, and the status of what happened. */
type Shown = { notice?: Notice | undefined; status?: number };

export function registerSignInPages(api: Api, deps: { users: UserService; sessions: Sessions; config: Config; limits: LimitStore }) {
  const { users, sessions } = deps;
  const attemptFrom = failedAuthentications(deps.limits, 'console', deps.config.authFailuresPerMinute);

  const signInPage = (request: FastifyRequest, reply: FastifyReply, form: { email?: string; next?: string | undefined }, shown: Shown = {}) => {
    const email = field('email', 'Email address', html`type="email" autocomplete="username" required value="${form.email ?? ''}"`);
    const password = field('password', 'Password', html`type="password" autocomplete="current-password" required`);
    const fields = html`<input type="hidden" name="next" value="${safeNext(form.next)}">${email}${password}<p><button type="submit">Sign in</button></p>`;
    const help = html`<p>Forgot your password, or locked out? An administrator can give you a new setup link.</p>`;
    return formPage(request, reply, { title: 'Sign in', action: '/console/sign-in', ...shown }, fields, help);
  };

  api.get('/sign-in', { config: { public: true }, schema: { querystring: SignInQuery } }, async (request, reply) => {
    const notice = request.query.notice as SignInNotice | undefined;
    return signInPage(request, reply, { next: request.query.next }, notice ? { notice: { kind: 'status', text: SIGN_IN_NOTICES[notice] } } : {});
  });

  api.post('/sign-in', { config: { public: true }, schema: { body: SignInBody } }, async (request, reply) => {
    const { email, password, next } = request.body;
    const tooMany = () =>
      signInPage(
        request,
        reply,
        { email, next },
        { notice: { kind: 'alert', text: 'Too many failed sign-ins from this address. Wait a minute and try again.' }, status: 429 },
      );
    const attempt = await attemptFrom(request.ip);
    if (attempt.wait > 0) return tooMany();
    try {
      await sessions.start(request, reply, await users.signIn(email, password, { requestId: String(request.id), sourceIp: request.ip }));
    } catch (error) {
      if (!isAppError(error) || error.code !== 'unauthenticated') {
        await attempt.release();
        throw error;
      }
      if ((await attempt.failed()) > 0) return tooMany();
      return signInPage(request, reply, { email, next }, { notice: { kind: 'alert', text: error.detail }, status: 401 });
    }
    await attempt.release();
    return reply.redirect(safeNext(next), 303);
  });

  api.post('/sign-out', { config: { tier: 'defense', permission: 'sign_out' } }, async (request, reply) => {
    await sessions.end(request, reply);
    return reply.redirect('/console/sign-in?notice=signed_out', 303);
  });

  const setupPage = (request: FastifyRequest, reply: FastifyReply, token: string, email: string, shown: Shown = {}) =>
    formPage(
      request,
      reply,
      { title: 'Set your password', action: '/console/setup', ...shown },
      html`<input type="hidden" name="token" value="${token}">
${field('username', 'Email address', html`type="email" autocomplete="username" readonly value="${email}"`)}
${field('password', 'New password', html`type="password" autocomplete="new-password" minlength="${PASSWORD_MIN_LENGTH}" required aria-describedby="password-help"`)}
<p id="password-help" class="help">At least ${PASSWORD_MIN_LENGTH} characters, and not your email address. A few unrelated words make a good one.</p>
${field('confirm', 'The same password again', html`type="password" autocomplete="new-password" minlength="${PASSWORD_MIN_LENGTH}" required`)}
<p><button type="submit">Set password and sign in</button></p>`,
    );

  const invalidLink = (request: FastifyRequest, reply: FastifyReply, detail: string) =>
    sendPage(request, reply, { title: 'This link cannot be used', status: 404, body: html`<p>${detail}</p><p><a href="/console/sign-in">Sign in</a></p>` });

  api.get('/setup', { config: { public: true }, schema: { querystring: SetupQuery } }, async (request, reply) => {
    const token = request.query.token ?? '';
    const target = await users.setupFor(token);
    if (!target)
      return invalidLink(
        request,
        reply,
        'This password-setup link was used already, replaced by a newer one, or has expired. Ask an administrator for a new one.',
      );
    return setupPage(request, reply, token, target.email);
  });

  api.post('/setup', { config: { public: true }, schema: { body: SetupBody } }, async (request, reply) => {
    const { token, password, confirm, username = '' } = request.body;
    if (password !== confirm)
      return setupPage(request, reply, token, username, { notice: { kind: 'alert', text: 'The two passwords are not the same.' }, status: 400 });
    try {
      await sessions.start(request, reply, await users.completeSetup(token, password, { requestId: String(request.id), sourceIp: request.ip }));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === 'validation_failed') return setupPage(request, reply, token, username, { notice: { kind: 'alert', text: error.detail }, status: 400 });
      if (error.code === 'not_found') return invalidLink(request, reply, error.detail);
      throw error;
    }
    return reply.redirect('/console', 303);
  });
}
