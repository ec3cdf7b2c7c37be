/**
 * An OFAC SDN file (the hand-written fixture or the real one) imported as a list version and
 * loaded into a running test app, as `gatehouse lists import` and the catalog's refresh would.
 */

import type { Tier } from '../../src/http/actor.ts';
import { importList } from '../../src/lists/list-import.ts';
import { parseOfacLegacy } from '../../src/screening/lists/ofac-legacy.ts';
import { createTenant, type TestTenant } from './credentials.ts';
import { readListFile } from './list-data.ts';
import { buildTestApp, type TestApp } from './test-app.ts';

export async function loadSdn(harness: TestApp, main: string, aliases?: string): Promise<void> {
  await importList(harness.database.db.lists, {
    list: 'OFAC_SDN',
    format: 'ofac-legacy',
    files: [],
    sourceSha256: 'd'.repeat(64),
    entities: parseOfacLegacy('OFAC_SDN', { main, ...(aliases && { aliases }) }).entities,
    warnings: [],
  });
  await harness.app.lists.refresh();
}

/** A test app screening against the real SDN file (2024-05), with a tenant of this tier to screen as. */
export async function appWithRealSdn(tier: Tier): Promise<{ harness: TestApp; tenant: TestTenant }> {
  const harness = await buildTestApp();
  const tenant = await createTenant(harness.database.owner, { tier });
  await loadSdn(harness, readListFile('ofac_sdn_2024-05/sdn.csv'));
  return { harness, tenant };
}
