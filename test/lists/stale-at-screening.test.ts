/**
 * What a screening records about its lists' freshness: the lists it consulted that were past
 * their maximum age at that moment, and nothing about a source that fails while its lists are
 * still within their age.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evaluateFreshness } from '../../src/lists/freshness.ts';
import { configuredSources, DEFAULT_SOURCE_URLS } from '../../src/lists/list-sources.ts';
import { stalenessAtScreening } from '../../src/lists/stale-at-screening.ts';

const now = new Date('2026-11-24T12:00:00Z');
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);
const settings = { maxAgeHours: { '*': 72, OFAC_SDN: 48, UN_SC: 72 } as never, failedChecksBeforeDegraded: 3 };
const sources = configuredSources(DEFAULT_SOURCE_URLS);
const report = evaluateFreshness(
  [
    { list: 'OFAC_SDN', versionId: 'lv_sdn_head', confirmedAt: hoursAgo(50.04), staleSince: null },
    { list: 'UN_SC', versionId: 'lv_un', confirmedAt: hoursAgo(2), staleSince: null },
    { list: 'BIS_DPL', versionId: 'lv_dpl', confirmedAt: hoursAgo(80), staleSince: null },
  ],
  [
    {
      source: 'unSc',
      lastAttemptAt: hoursAgo(0.1),
      lastSuccessAt: hoursAgo(2),
      consecutiveFailures: 5,
      lastError: 'x',
      validators: {},
      versionIds: [],
      failingSince: null,
    },
  ],
  sources,
  settings,
  now,
);

test('the consulted lists past their age are named with the version screened, their confirmation, age and maximum', () => {
  const consulted = [
    { list: 'OFAC_SDN', version_id: 'lv_sdn_loaded' },
    { list: 'UN_SC', version_id: 'lv_un' },
  ];
  assert.deepEqual(stalenessAtScreening(report, consulted), {
    lists_stale: true,
    stale_lists: [{ list: 'OFAC_SDN', version_id: 'lv_sdn_loaded', confirmed_at: hoursAgo(50.04).toISOString(), age_hours: 50, max_age_hours: 48 }],
  });
});

test('a failing source whose list is within its age, a stale list not consulted, and a list the report does not know yet are not stale', () => {
  assert.equal(report.lists.find((l) => l.list === 'UN_SC')?.sourceFailing, true);
  const consulted = [
    { list: 'UN_SC', version_id: 'lv_un' },
    { list: 'BIS_EL', version_id: 'lv_el_just_imported' },
  ];
  assert.deepEqual(stalenessAtScreening(report, consulted), { lists_stale: false, stale_lists: [] });
});
