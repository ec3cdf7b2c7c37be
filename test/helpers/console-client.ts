/**
 * A person using the console through `inject`: a cookie jar, the CSRF token of the last page
 * read, and forms posted as a browser posts them (application/x-www-form-urlencoded).
 */
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { AuditContext } from '../../src/audit/audit.ts';
import { createUserService } from '../../src/features/console/users/user-service.ts';
import type { Role } from '../../src/http/actor.ts';
import type { TestApp } from './test-app.ts';

export const TEST_PASSWORD = 'correct horse battery staple';

export class ConsoleClient {
  readonly cookies = new Map<string, string>();
  lastPage = '';

  constructor(private readonly harness: TestApp) {}

  private remember(response: LightMyRequestResponse) {
    for (const cookie of response.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const gone = cookie.value === '' || cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now());
      if (gone) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    if (String(response.headers['content-type']).startsWith('text/html')) this.lastPage = response.body;
    return response;
  }

  private get cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async get(url: string) {
    return this.remember(await this.harness.app.inject({ method: 'GET', url, headers: { cookie: this.cookieHeader } }));
  }

  /** The CSRF token in the last page read (every form of a page carries the same one). */
  csrf(): string {
    const token = /name="_csrf" value="([^"]+)"/.exec(this.lastPage)?.[1];
    assert.ok(token, 'the last page has no form with a CSRF token');
    return token;
  }

  /** Posts a form; `_csrf` is the last page's token unless the form says otherwise (or `null`: none). */
  async post(url: string, form: Record<string, string | null> = {}) {
    const fields = { _csrf: this.lastPage.includes('name="_csrf"') ? this.csrf() : null, ...form };
    const payload = new URLSearchParams(Object.entries(fields).filter((e): e is [string, string] => e[1] !== null)).toString();
    return this.remember(
      await this.harness.app.inject({
        method: 'POST',
        url,
        payload,
        headers: { cookie: this.cookieHeader, 'content-type': 'application/x-www-form-urlencoded' },
      }),
    );
  }

  /**
   * Posts a form with a file as a browser does (multipart/form-data, encoded by Node's own
   * FormData); `_csrf` as for `post`.
   */
  async postFile(url: string, form: Record<string, string | null>, file: { field: string; name: string; content: string | Uint8Array }) {
    const data = new FormData();
    const fields = { _csrf: this.lastPage.includes('name="_csrf"') ? this.csrf() : null, ...form };
    for (const [name, value] of Object.entries(fields)) if (value !== null) data.append(name, value);
    data.append(file.field, new Blob([file.content], { type: 'text/csv' }), file.name);
    const encoded = new Request('http://console.test/', { method: 'POST', body: data });
    return this.remember(
      await this.harness.app.inject({
        method: 'POST',
        url,
        payload: Buffer.from(await encoded.arrayBuffer()),
        headers: { cookie: this.cookieHeader, 'content-type': encoded.headers.get('content-type') as string },
      }),
    );
  }

  /** Sets the password through the setup link (which signs in), as a new user does. */
  async setUp(setupToken: string, password = TEST_PASSWORD) {
    const page = await this.get(`/console/setup?token=${setupToken}`);
    assert.equal(page.statusCode, 200, page.body);
    const done = await this.post('/console/setup', { token: setupToken, password, confirm: password });
    assert.equal(done.statusCode, 303, done.body);
    return done;
  }

  async signIn(email: string, password = TEST_PASSWORD) {
    await this.get('/console/sign-in');
    return this.post('/console/sign-in', { email, password });
  }
}

/** A console user created as an operator would, and a client signed in as them. */
export async function signedInUser(harness: TestApp, organizationId: string, email: string, role: Role) {
  const operator: AuditContext = { actor: { organizationId, kind: 'system', id: 'cli', role: null }, requestId: null, sourceIp: null };
  const { setupToken } = await createUserService(harness.database.db.withTenant).create(operator, { email, role });
  const client = new ConsoleClient(harness);
  await client.setUp(setupToken);
  return client;
}

/** The text of an HTML page, tags dropped and entities of the escaper turned back, for matching what a reader sees. */
export const pageText = (body: string) =>
  body
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
