/**
 * An import's rows checked whole (import-input.ts): a file of thousands of rows is checked turn by
 * turn, so other requests are answered meanwhile, and still refused whole, every problem named.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EntryBody } from '../../../src/features/watchlists/entry-input.ts';
import { checkedImport } from '../../../src/features/watchlists/import-input.ts';
import { AppError } from '../../../src/http/errors.ts';
import { turnsDuring } from '../../helpers/turns.ts';

const ROWS = 5_000;
const SURNAMES = ['Abernathy', 'Bellweather', 'Castellanos', 'Drummond', 'Eastwick', 'Fairbanks', 'Gallagher', 'Hollingsworth', 'Ingersoll', 'Jablonski'];
const bodies = (): EntryBody[] =>
  Array.from({ length: ROWS }, (_, i) => ({
    external_id: `row-${i}`,
    name: `Rosalind ${SURNAMES[i % SURNAMES.length]} ${i.toString(36)}`,
    dates_of_birth: ['1970-03-14'],
    countries: ['GB'],
    reason: 'test',
    severity: 'orange',
  }));

test('thousands of rows are checked turn by turn: other callbacks run before the check ends, and every row comes back clean', async () => {
  const { result, turns } = await turnsDuring(() => checkedImport({ format: 'json', bodies: bodies() }));
  assert.ok(turns > 0, 'the check held the event loop from start to end');
  assert.equal(result.length, ROWS);
  assert.deepEqual(
    result.map((row) => row.externalId),
    bodies().map((body) => body.external_id),
  );
});

test('checked turn by turn, a file is still refused whole, with every problem, wherever its row', async () => {
  const rows = bodies();
  rows[1] = { ...(rows[1] as EntryBody), countries: ['XX'] };
  rows[ROWS - 1] = { ...(rows[ROWS - 1] as EntryBody), external_id: 'row-7' };
  const refused = await checkedImport({ format: 'json', bodies: rows }).then(
    () => assert.fail('the import was not refused'),
    (error: unknown) => error,
  );
  assert.ok(refused instanceof AppError);
  assert.deepEqual(
    refused.extras.errors?.map((e) => e.pointer),
    ['/entries/1/countries/0', `/entries/${ROWS - 1}/external_id`],
  );
});
