/**
 * Suppressions answered from the rows the service keeps (src/features/cases/suppression-store.ts),
 * and when those rows cannot answer and the database is asked instead.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { activeAmong, type KeptSuppressions } from '../../../src/features/cases/suppression-store.ts';

const at = (iso: string) => new Date(iso);
const row = (id: string, fingerprint: string, expires: string | null) => ({
  id,
  subject_fingerprint: fingerprint,
  list: 'OFAC_SDN',
  entry_id: '36',
  entry_sha256: 'a'.repeat(64),
  expires_at: expires === null ? null : at(expires),
});
const kept: KeptSuppressions = {
  complete: true,
  since: at('2026-11-23T11:00:00Z'),
  rows: [row('sup_forever', 'fp_a', null), row('sup_until_noon', 'fp_a', '2026-11-23T12:00:00Z'), row('sup_other', 'fp_b', null)],
};

test("kept rows answer for the subjects asked about, without those expired at the screening's time", () => {
  assert.deepEqual(
    activeAmong(kept, ['fp_a'], at('2026-11-23T11:30:00Z'))?.map((s) => s.id),
    ['sup_forever', 'sup_until_noon'],
  );
  assert.deepEqual(
    activeAmong(kept, ['fp_a'], at('2026-11-23T12:00:00Z'))?.map((s) => s.id),
    ['sup_forever'],
    'expired at its expiry time',
  );
  assert.deepEqual(activeAmong(kept, ['fp_c'], at('2026-11-23T11:30:00Z')), []);
});

test('kept rows do not answer for a screening dated before the expiries they cover, nor when there were too many to keep', () => {
  assert.equal(activeAmong(kept, ['fp_a'], at('2026-11-23T10:59:59Z')), undefined);
  assert.equal(activeAmong({ complete: false }, ['fp_a'], at('2026-11-23T11:30:00Z')), undefined);
});
