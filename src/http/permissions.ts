/**
 * The permission matrix: who may call what, in one place. Every authenticated route declares the
 * tier its organization needs (`config.tier`) and what kind of operation it is
 * (`config.permission`); the API's authentication (authentication.ts) and the console's session
 * hook both call `authorize` with that declaration, and the OpenAPI description, the README and
 * the test that walks every route read the same table. No handler checks a role itself.
 */
import type { FastifyRequest, FastifySchema } from 'fastify';
import type { RequestActor, Tier } from './actor.ts';
import { AppError } from './errors.ts';

/** What a route does, which decides who may call it. */
export type Permission = 'read' | 'operate' | 'decide' | 'administer' | 'sign_out';

/** The kinds of caller: the three roles of people, and the two scopes of API keys. */
export type Principal = 'admin' | 'adjudicator' | 'viewer' | 'admin_key' | 'standard_key';
export const PRINCIPALS: readonly Principal[] = ['admin', 'adjudicator', 'viewer', 'admin_key', 'standard_key'];

export const PERMISSIONS: Record<Permission, { means: string; allowed: readonly Principal[] }> = {
  read: {
    means: 'reads the organization’s records and the lists',
    allowed: ['admin', 'adjudicator', 'viewer', 'admin_key', 'standard_key'],
  },
  operate: {
    means: 'screens, checks visitors in and out, syncs the workforce, screens vendors, runs ownership checks, keeps watchlist entries',
    allowed: ['admin', 'adjudicator', 'admin_key', 'standard_key'],
  },
  decide: {
    // The second decision of a four-eyes case must come from another person (adjudication's rules).
    means: 'decides, assigns and annotates adjudication cases',
    allowed: ['admin', 'adjudicator', 'admin_key', 'standard_key'],
  },
  administer: {
    means: 'manages API keys, webhook endpoints, the inbound webhook secret, the adjudication rules and the watchlists, and exports the audit trail',
    allowed: ['admin', 'admin_key'],
  },
  sign_out: {
    means: 'ends the session of the token presented (an API key is disabled or revoked instead)',
    allowed: ['admin', 'adjudicator', 'viewer'],
  },
};

export const TIERS: Record<Tier, { serves: readonly Tier[] }> = {
  defense: { serves: ['defense', 'enterprise'] },
  enterprise: { serves: ['enterprise'] },
};

const PRINCIPAL_NAMES: Record<Principal, string> = {
  admin: 'a person with the admin role',
  adjudicator: 'a person with the adjudicator role',
  viewer: 'a person with the viewer role',
  admin_key: 'an admin API key',
  standard_key: 'a standard API key',
};

export function principalOf(actor: Pick<RequestActor, 'kind' | 'admin' | 'role'>): Principal {
  if (actor.kind === 'api_key') return actor.admin ? 'admin_key' : 'standard_key';
  return actor.role ?? 'viewer';
}

export const mayCall = (principal: Principal, permission: Permission) => PERMISSIONS[permission].allowed.includes(principal);

/** What a route declares: the tier its organization needs and the kind of operation it is. */
export type Access = { tier: Tier; permission: Permission };

/** What a route's config declares: public, its access, or nothing (the not-found handler; any other route is refused at start). */
export function declaredAccess(config: { public?: boolean; tier?: Tier; permission?: Permission } | undefined): Access | 'public' | undefined {
  if (config?.public) return 'public';
  return config?.tier && config.permission ? { tier: config.tier, permission: config.permission } : undefined;
}

/** A route's access, or the error that stops the app from starting when it declares none. */
export function requireDeclaredAccess(route: { method: string | string[]; url: string; config?: Parameters<typeof declaredAccess>[0] }): Access | 'public' {
  const access = declaredAccess(route.config);
  if (!access) throw new Error(`${route.method} ${route.url} must declare config.tier and config.permission (or config.public)`);
  return access;
}

/** Whether a caller of this kind, in an organization of this tier, may call a route with this access. */
export const allows = (access: Access, tier: Tier, principal: Principal) => TIERS[access.tier].serves.includes(tier) && mayCall(principal, access.permission);

/** Refuses the caller unless its organization's tier and its own role or key scope allow the route. */
export function authorize(actor: RequestActor, route: Access & { summary?: string }) {
  if (!TIERS[route.tier].serves.includes(actor.tier)) {
    throw new AppError('tier_required', 'This is part of the Enterprise tier; your organization has Defense.', { required_tier: route.tier });
  }
  const principal = principalOf(actor);
  if (mayCall(principal, route.permission)) return;
  const what = route.summary ? `“${route.summary}”` : 'This';
  throw new AppError(
    'role_required',
    `${what} needs ${namesOf(PERMISSIONS[route.permission].allowed)}; this request comes from ${PRINCIPAL_NAMES[principal]}.`,
    {
      required_permission: route.permission,
      allowed: PERMISSIONS[route.permission].allowed,
      caller: principal,
    },
  );
}

const namesOf = (principals: readonly Principal[]) => {
  const names = principals.map((p) => PRINCIPAL_NAMES[p]);
  return names.length <= 1 ? (names[0] ?? 'nobody') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
};

/** The sentence each operation's OpenAPI description ends with. */
export function accessSentence(tier: Tier, permission: Permission): string {
  const tiers = TIERS[tier].serves.length > 1 ? 'Defense and Enterprise' : 'Enterprise only';
  return `**Access** (${permission}): ${namesOf(PERMISSIONS[permission].allowed)}. Tiers: ${tiers}.`;
}

/** The matrix as a Markdown table, for the OpenAPI description and the README. */
export function permissionTable(): string {
  const header = `| operation kind | ${PRINCIPALS.join(' | ')} |`;
  const rule = `|---|${PRINCIPALS.map(() => '---').join('|')}|`;
  const rows = (Object.keys(PERMISSIONS) as Permission[]).map(
    (permission) => `| \`${permission}\`: ${PERMISSIONS[permission].means} | ${PRINCIPALS.map((p) => (mayCall(p, permission) ? 'yes' : '—')).join(' | ')} |`,
  );
  return [header, rule, ...rows].join('\n');
}

/** The route's own declaration, checked against the request's authenticated caller. */
export function authorizeRoute(request: FastifyRequest) {
  const { tier, permission } = request.routeOptions.config;
  const actor = request.actor;
  if (!actor) throw new AppError('unauthenticated', 'This endpoint needs a credential.');
  // Only the not-found handler declares nothing (a route that does cannot start): its caller is authenticated, then told 404.
  if (!tier || !permission) return;
  authorize(actor, { tier, permission, summary: (request.routeOptions.schema as { summary?: string } | undefined)?.summary });
}

/** Marks an operation with its tier and permission, and ends its description with who may call it. */
export function documentAccess(schema: FastifySchema & { description?: string }, tier: Tier, permission: Permission) {
  Object.assign(schema, {
    'x-tier': tier,
    'x-permission': permission,
    'x-allowed': PERMISSIONS[permission].allowed,
    description: [schema.description, accessSentence(tier, permission)].filter(Boolean).join('\n\n'),
  });
}
