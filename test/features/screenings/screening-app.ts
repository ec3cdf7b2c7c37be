/**
 * A real app with a Defense and an Enterprise organization, shared by the screening test files,
 * and the hand-written OFAC fixture they load.
 */
import fs from 'node:fs';
import { after, before } from 'node:test';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';

export const fixture = (path: string) => fs.readFileSync(new URL(`../../fixtures/${path}`, import.meta.url), 'latin1');

/** Registers the hooks of the describe (or file) it is called in; the fields are there once `before` has run. */
export function openScreeningApp() {
  let harness: TestApp;
  let defense: TestTenant;
  let enterprise: TestTenant;
  before(async () => {
    harness = await buildTestApp();
    defense = await createTenant(harness.database.owner, { tier: 'defense' });
    enterprise = await createTenant(harness.database.owner, { tier: 'enterprise' });
  });
  after(() => harness.close());
  const post = (url: string, tenant: TestTenant, payload: unknown, headers: Record<string, string> = {}) =>
    harness.app.inject({ method: 'POST', url, headers: { ...tenant.headers, ...headers }, payload: payload as object });
  return {
    get harness() {
      return harness;
    },
    get defense() {
      return defense;
    },
    get enterprise() {
      return enterprise;
    },
    post,
    prescreen: (payload: unknown, tenant = defense) => post('/api/v1/prescreen', tenant, payload),
  };
}
