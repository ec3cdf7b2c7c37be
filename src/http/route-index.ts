/**
 * The routes the server registered, kept so that a request for a known path with the wrong
 * method can answer 405 with an `Allow` header instead of 404, and so tests can compare the
 * registered routes with the OpenAPI description and walk them with every kind of caller.
 */
import type { RouteOptions } from 'fastify';
import { type Access, declaredAccess } from './permissions.ts';

export type RegisteredRoute = { method: string; url: string; access: Access | 'public' | undefined };

export class RouteIndex {
  readonly routes: RegisteredRoute[] = [];
  private readonly matchers: { method: string; pattern: RegExp }[] = [];

  add(route: Pick<RouteOptions, 'method' | 'url' | 'config'>) {
    const access = declaredAccess(route.config);
    for (const method of [route.method].flat()) {
      this.routes.push({ method, url: route.url, access });
      this.matchers.push({ method, pattern: toPattern(route.url) });
    }
  }

  methodsFor(path: string): string[] {
    const methods = this.matchers.filter((m) => m.pattern.test(path)).map((m) => m.method);
    return [...new Set(methods)].sort();
  }
}

function toPattern(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => {
      if (segment === '*') return '.*';
      if (segment.startsWith(':')) return '[^/]+';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}/?$`);
}
