/**
 * The adjudication console: server-rendered pages at /console where security officers and
 * compliance analysts work the queue, decide cases, call the roll of visitors on site, keep the
 * organization's watchlists, read the audit log and look after webhooks and API keys. Pages call
 * the same services, in the same tenant transactions, as the API, so row-level security and the
 * roles hold exactly as there.
 *
 * Around the pages: a cookie session (session.ts), CSRF protection on every POST
 * (@fastify/csrf-protection), a Content-Security-Policy that allows this server's own style sheet
 * and script only, and error pages instead of problem+json. The console is not part of the API,
 * so its routes are left out of the OpenAPI description.
 */
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import type { Feature } from '../../http/feature.ts';
import type { AdjudicationService } from '../adjudication/service.ts';
import type { OwnershipService } from '../ownership/service.ts';
import type { ScreeningService } from '../screenings/service.ts';
import type { SessionService } from '../visitor-sessions/service.ts';
import type { WatchlistService } from '../watchlists/service.ts';
import type { WebhookService } from '../webhooks/service.ts';
import { registerAssets } from './assets.ts';
import { installErrorPages } from './error-pages.ts';
import { registerApiKeysPage } from './pages/api-keys.ts';
import { registerAuditPage } from './pages/audit.ts';
import { registerCasePages } from './pages/case.ts';
import { registerOwnershipPages } from './pages/ownership.ts';
import { registerQueuePage } from './pages/queue.ts';
import { registerSignInPages } from './pages/sign-in.ts';
import { registerVisitorsPage } from './pages/visitors.ts';
import { registerWebhooksPage } from './pages/webhooks.ts';
import { consoleCookies, createSessions } from './session.ts';
import { createUserService } from './users/user-service.ts';
import { listsBanner } from './views/lists-banner.ts';
import { registerWatchlistPages } from './watchlists/index.ts';

/** Scripts and styles from this server only, no inline code, no framing, forms posted here only. */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The services behind the pages: the same the API's routes call. */
type ConsoleServices = {
  adjudication: AdjudicationService;
  screenings: ScreeningService;
  visitorSessions: SessionService;
  watchlists: WatchlistService;
  webhooks: WebhookService;
  ownership: OwnershipService;
};

const consoleFeature: Feature<ConsoleServices> = {
  name: 'console',
  prefix: '/console',
  async register(
    api,
    { config, db, lists, listFreshness, tokens, reads, limits },
    { adjudication, screenings, visitorSessions, watchlists, webhooks, ownership },
  ) {
    const cookies = consoleCookies(config.consoleSecureCookies);
    api.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    api.addHook('onRequest', async (_request, reply) => {
      reply.header('content-security-policy', CONSOLE_CSP).header('referrer-policy', 'no-referrer').header('x-frame-options', 'DENY');
    });
    await api.register(fastifyCookie);
    await api.register(fastifyFormbody);
    await api.register(fastifyCsrf, { cookieKey: cookies.csrf, cookieOpts: cookies.options });
    installErrorPages(api, config.bodyLimitBytes);

    const users = createUserService(db.withTenant);
    const sessions = createSessions(tokens, users, cookies);
    sessions.install(api);
    // After the session: the banner is for people signed in.
    api.addHook('onRequest', async (request) => {
      if (!request.viewer) return;
      const now = new Date();
      request.listsBanner = listsBanner(listFreshness.report(now), now);
    });
    // After the body is read (the token is a form field), before anything acts on it.
    api.addHook('preValidation', (request, reply, done) => (request.method === 'POST' ? api.csrfProtection(request, reply, done) : done()));

    registerAssets(api);
    api.get('/', { config: { tier: 'defense', permission: 'read' } }, async (request, reply) =>
      reply.redirect(request.viewer?.tier === 'enterprise' ? '/console/queue' : '/console/visitors', 303),
    );
    registerSignInPages(api, { users, sessions, config, limits });
    registerQueuePage(api, { adjudication, lists });
    registerCasePages(api, { adjudication, visitorSessions, screenings, ownership, lists });
    registerVisitorsPage(api, { visitorSessions, screenings });
    registerWatchlistPages(api, { watchlists, reads });
    registerAuditPage(api, { db, reads });
    registerWebhooksPage(api, { webhooks });
    registerOwnershipPages(api, { ownership });
    registerApiKeysPage(api, { withTenant: db.withTenant });
  },
};

export default consoleFeature;
