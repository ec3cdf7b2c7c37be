/**
 * The console in a real browser (Debian's chromium through playwright-core) against the service
 * as its own process, for the browser tests of the console: organizations with an admin key each
 * (one Enterprise, one Defense, one other) and the people a test names, seeded with the services
 * the CLI uses before the service starts; each person's own browser; their passwords set from
 * their setup links; the API called with a key; forms posted from a page; screenshots to a
 * temporary folder. Call `consoleInBrowser` inside a `describe`: it registers its own hooks.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createApiKeyService } from '../../../src/auth/api-key-service.ts';
import { loadConfig } from '../../../src/config.ts';
import { openReadyDatabase } from '../../../src/db/database.ts';
import { setupPath } from '../../../src/features/console/users/present.ts';
import { createUserService } from '../../../src/features/console/users/user-service.ts';
import type { Role } from '../../../src/http/actor.ts';
import { launchChromium, screenshotDir } from '../../helpers/browser.ts';
import { processDatabase, type ServerProcess, startServerProcess } from '../../helpers/server-process.ts';

export const PASSWORD = 'orange tractor violin 42';

/** A person of the test: their email, role, and whether they work for the Enterprise organization (`own`) or the Defense one. */
export type Person = { email: string; role: Role; home: 'own' | 'defense' };

export function consoleInBrowser<Who extends string>(people: Record<Who, Person>) {
  let storage: Awaited<ReturnType<typeof processDatabase>>;
  let server: ServerProcess;
  let browser: Browser;
  let origin: string;
  let stopping = false;
  const keys: { own?: string; other?: string; defense?: string } = {};
  const setupTokens: Partial<Record<Who, string>> = {};
  const contexts = new Map<string, BrowserContext>();
  let shots = '';

  /** Organizations, keys and people, made with the services the CLI uses, before the service starts. */
  async function seed(env: Record<string, string>) {
    const db = await openReadyDatabase(loadConfig({ ...env, LOG_LEVEL: 'silent' }), true);
    try {
      const make = async (name: string, tier: 'enterprise' | 'defense' = 'enterprise') => {
        const organization = await db.operator.createOrganization({ name, tier });
        const context = { actor: { organizationId: organization.id, kind: 'system' as const, id: 'cli', role: null }, requestId: null, sourceIp: null };
        const { key } = await createApiKeyService(db.withTenant).create(context, { name: 'desk', environment: 'live', admin: true });
        return { context, key };
      };
      const homeOf = { own: await make('Northgate Defense'), defense: await make('Harbor Gate Shipyard', 'defense') };
      keys.own = homeOf.own.key;
      keys.defense = homeOf.defense.key;
      keys.other = (await make('Other Organization')).key;
      for (const [who, person] of Object.entries(people) as [Who, Person][]) {
        setupTokens[who] = (await createUserService(db.withTenant).create(homeOf[person.home].context, { email: person.email, role: person.role })).setupToken;
      }
    } finally {
      await db.close();
    }
  }

  before(async () => {
    storage = await processDatabase();
    // No delivery worker: the webhooks page shows deliveries waiting, to an address nothing listens on.
    const env = {
      ...storage.env,
      LISTS_DIR: path.resolve('test/fixtures/ofac'),
      SANDBOX_BOOTSTRAP: 'false',
      WEBHOOK_WORKER: 'false',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:9',
    };
    await seed(env);
    [server, browser] = await Promise.all([startServerProcess(env), launchChromium()]);
    origin = new URL(server.baseUrl).origin;
    // A service that dies under the tests says why, rather than leaving only refused connections.
    server.child.once('exit', (code, signal) => {
      if (!stopping) process.stderr.write(`the service exited (${code ?? signal}) during the tests:\n${server.stdout().slice(-4000)}\n${server.stderr()}\n`);
    });
    shots = screenshotDir();
  });

  after(async () => {
    stopping = true;
    await browser?.close();
    await server?.stop();
    await storage?.cleanup();
  });

  /** A person's own browser (cookie jar), opened once. */
  async function pageOf(who: Who): Promise<Page> {
    let context = contexts.get(who);
    if (!context) {
      context = await browser.newContext({ baseURL: origin });
      // A busy CI machine may take a while to hash a password; a real failure still fails.
      context.setDefaultTimeout(60_000);
      contexts.set(who, context);
    }
    return context.pages()[0] ?? context.newPage();
  }

  return {
    keys,
    /** Where this run's screenshots go. */
    get shots() {
      return shots;
    },
    pageOf,

    async api(key: string | undefined, method: string, url: string, body?: object): Promise<Record<string, string>> {
      const response = await fetch(`${origin}/api/v1${url}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body && { 'content-type': 'application/json' }) },
        ...(body && { body: JSON.stringify(body) }),
      });
      assert.ok(response.ok, `${method} ${url}: ${response.status} ${await response.clone().text()}`);
      return (await response.json()) as Record<string, string>;
    },

    shoot: (page: Page, name: string) => page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true }),

    /** Sets the person's password from their setup link, which signs them in. */
    async setPassword(who: Who) {
      const page = await pageOf(who);
      await page.goto(setupPath(setupTokens[who] as string));
      await page.getByLabel('New password').fill(PASSWORD);
      await page.getByLabel('The same password again').fill(PASSWORD);
      await page.getByRole('button', { name: 'Set password and sign in' }).click();
      await page.waitForURL(/\/console\/(queue|visitors)$/);
      return page;
    },
  };
}

/** Posts a form from this page's browser (its cookies), with the page's CSRF token unless `token` is given; answers the status and the page's text. */
export async function postForm(page: Page, action: string, fields: Record<string, string>, token?: string) {
  const csrf = token ?? (await page.locator('input[name="_csrf"]').first().inputValue());
  const response = await page.request.post(action, { form: { ...fields, _csrf: csrf }, maxRedirects: 0 });
  return { status: response.status(), text: await response.text() };
}
