/**
 * An OFAC SDN file (the hand-written fixture or the real one) imported as a list version and
 * loaded into a running test app, as `gatehouse lists import` and the catalog's refresh would.
 */
import { importList } from '../../src/lists/list-import.ts';
import { parseOfacLegacy } from '../../src/screening/lists/ofac-legacy.ts';
import type { TestApp } from './test-app.ts';

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
