/**
 * The frame of every console page: plain semantic HTML that reads in order without its style
 * sheet (skip link, header, navigation, one main region with one h1), a style sheet and one small
 * script from this server only, and a sign-out form carrying its CSRF token.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Tier } from '../../db/schema.ts';
import type { Role } from '../../http/actor.ts';
import { type Access, allows } from '../../http/permissions.ts';
import { type Html, html } from './html.ts';

/** The signed-in person, as every page shows them. */
export type Viewer = { email: string; role: Role; organizationName: string; tier: Tier };

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the console's authentication; undefined on its public pages. */
    viewer?: Viewer;
    /** This request's CSRF token, made once and put in every form of the page. */
    csrfToken?: string;
    /** Shown atop the page while the lists are not all current (views/lists-banner.ts). */
    listsBanner?: Html | undefined;
  }
}

export type Section = 'queue' | 'visitors' | 'watchlists' | 'audit' | 'webhooks' | 'api-keys';

type NavItem = { section: Section; label: string; path: string } & Access;
/** Each page's access as its route declares it (pages/*.ts): the permission matrix decides what is offered. */
const NAV: NavItem[] = [
  { section: 'queue', label: 'Queue', path: '/console/queue', tier: 'defense', permission: 'read' },
  { section: 'visitors', label: 'Visitors on site', path: '/console/visitors', tier: 'defense', permission: 'read' },
  { section: 'watchlists', label: 'Watchlists', path: '/console/watchlists', tier: 'defense', permission: 'read' },
  { section: 'audit', label: 'Audit log', path: '/console/audit', tier: 'enterprise', permission: 'administer' },
  { section: 'webhooks', label: 'Webhooks', path: '/console/webhooks', tier: 'defense', permission: 'administer' },
  { section: 'api-keys', label: 'API keys', path: '/console/api-keys', tier: 'defense', permission: 'administer' },
];

/** The pages this person may open: what the server would refuse is not offered. */
export const navigationFor = (viewer: Viewer) => NAV.filter((item) => allows(item, viewer.tier, viewer.role));

/** A message at the top of the page: `status` for news, `alert` for a problem (read out at once). */
export type Notice = { kind: 'status' | 'alert'; text: string | Html };

export type Page = { title: string; body: Html; section?: Section; notice?: Notice | undefined; status?: number };

export function csrfToken(request: FastifyRequest, reply: FastifyReply): string {
  request.csrfToken ??= reply.generateCsrf();
  return request.csrfToken;
}

/** The hidden field every POST form carries. */
export const csrfField = (request: FastifyRequest, reply: FastifyReply) => html`<input type="hidden" name="_csrf" value="${csrfToken(request, reply)}">`;

export function sendPage(request: FastifyRequest, reply: FastifyReply, page: Page) {
  return reply
    .code(page.status ?? 200)
    .type('text/html; charset=utf-8')
    .send(renderPage(request, reply, page).text);
}

function renderPage(request: FastifyRequest, reply: FastifyReply, page: Page): Html {
  const viewer = request.viewer;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · Gatehouse console</title>
<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/console.js" defer></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
<p class="brand"><a href="/console">Gatehouse console</a>${viewer && html` <span class="organization">${viewer.organizationName}</span>`}</p>
${viewer && header(request, reply, viewer, page.section)}
</header>
<main id="main" tabindex="-1">
${viewer && request.listsBanner}
<h1>${page.title}</h1>
${page.notice && html`<div class="notice notice-${page.notice.kind}" role="${page.notice.kind}"><p>${page.notice.text}</p></div>`}
${page.body}
</main>
</body>
</html>
`;
}

function header(request: FastifyRequest, reply: FastifyReply, viewer: Viewer, current: Section | undefined): Html {
  return html`<nav aria-label="Console">
<ul>
${navigationFor(viewer).map((item) => html`<li><a href="${item.path}"${item.section === current ? html` aria-current="page"` : ''}>${item.label}</a></li>`)}
</ul>
</nav>
<form class="sign-out" method="post" action="/console/sign-out">
${csrfField(request, reply)}
<p>Signed in as <strong>${viewer.email}</strong> (${viewer.role}) <button type="submit">Sign out</button></p>
</form>`;
}
