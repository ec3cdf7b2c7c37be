/**
 * Looking determinations up by key: thousands of keys (a year of changes to a list makes some
 * 5,000 words) are read a batch of keys to a statement, and every (key, determination) pair comes
 * back exactly once, across batches and across the pages of a key that thousands of parties share.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checksUnderKeys } from '../../../src/features/ownership/party-key-store.ts';
import { createOrganization } from '../../helpers/credentials.ts';
import { openTestDatabase } from '../../helpers/test-database.ts';

const KEYS = 1_200;
const SHARED = 'word:trading';
const SHARING = 1_500;

test('every pair under 1,200 keys, one of them shared by 1,500 determinations, is read once, in few statements', async () => {
  const database = await openTestDatabase();
  try {
    const organizationId = await createOrganization(database.owner);
    const other = await createOrganization(database.owner);
    // word:w0000 … word:w1199, each under two determinations; and one word under 1,500.
    await database.owner(
      `INSERT INTO ownership_check_parties (organization_id, key, check_id, names)
       SELECT $1, 'word:w' || lpad(i::text, 4, '0'), 'own_k' || i || '_' || j, '[]'::jsonb
       FROM generate_series(0, $2 - 1) AS i, generate_series(1, 2) AS j
       UNION ALL
       SELECT $1, $3, 'own_s' || lpad(i::text, 5, '0'), '[]'::jsonb FROM generate_series(1, $4) AS i`,
      [organizationId, KEYS, SHARED, SHARING],
    );
    await database.owner(`INSERT INTO ownership_check_parties (organization_id, key, check_id, names) VALUES ($1, 'word:w0001', 'own_theirs', '[]')`, [other]);
    const keys = [...Array.from({ length: KEYS }, (_, i) => `word:w${String(i).padStart(4, '0')}`), SHARED, 'word:nobody'];

    const seen: string[] = [];
    let pages = 0;
    await database.db.withTenant({ organizationId, kind: 'system', id: 'test' }, async (trx) => {
      for await (const page of checksUnderKeys(trx, keys)) {
        pages += 1;
        for (const row of page) seen.push(row.checkId);
      }
    });
    assert.equal(seen.length, KEYS * 2 + SHARING);
    assert.equal(new Set(seen).size, seen.length, 'no determination twice');
    assert.ok(!seen.includes('own_theirs'), "another organization's determination is not found");
    assert.ok(seen.includes('own_k1199_2') && seen.includes('own_s01500'));
    assert.ok(pages <= 8, `${pages} pages for ${keys.length} keys`);
  } finally {
    await database.close();
  }
});
