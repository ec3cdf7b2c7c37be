/**
 * List files read, parsed and hashed in a worker thread come back exactly as the main thread
 * would have prepared them, and the worker's errors come back as the same kinds with the same
 * messages. (`gatehouse lists import` runs the worker under bin/gatehouse.js: lists-cli.test.ts.)
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { importListFiles } from '../../src/lists/import-files.ts';
import { ListImportError } from '../../src/lists/list-content.ts';
import { prepareList } from '../../src/lists/prepared-list.ts';
import { listReaderThreadId, readListsInWorker, stopListReader } from '../../src/lists/read-lists-in-worker.ts';
import { ListFormatError } from '../../src/screening/lists/list-format-error.ts';
import { readListSources } from '../../src/screening/lists/read-list-sources.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

const fixtures = path.resolve('test/fixtures');

/** What the call rejected with, to compare a worker's error with the main thread's. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('list files read in a worker thread', () => {
  let scratch: string;
  let database: TestDatabase;
  before(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-read-lists-'));
    database = await openTestDatabase();
  });
  after(async () => {
    fs.rmSync(scratch, { recursive: true, force: true });
    await database.close();
  });

  test('come back as the main thread prepares them: hashes, counts and entry batches', async () => {
    const paths = [path.join(fixtures, 'ofac'), path.join(fixtures, 'bis'), path.join(fixtures, 'un'), path.join(fixtures, 'csl', 'consolidated.csv')];
    const inWorker = await readListsInWorker({ paths });
    const onMain = (await readListSources(paths)).map((list) => ({ list: list.list, prepared: prepareList(list) }));
    assert.ok(onMain.length >= 4, onMain.map((l) => l.list).join(', '));
    assert.deepEqual(inWorker, onMain);
  });

  test('a file that cannot be read fails as the same ListFormatError, with the same message', async () => {
    const truncated = path.join(scratch, 'truncated');
    fs.mkdirSync(truncated);
    fs.writeFileSync(path.join(truncated, 'sdn.csv'), fs.readFileSync(path.join(fixtures, 'ofac/sdn.csv')).subarray(0, 150));
    for (const paths of [[truncated], [path.join(scratch, 'missing.csv')], [path.join(fixtures, 'bis/dpl.txt'), path.join(fixtures, 'ofac/README.md')]]) {
      const expected = await rejection(readListSources(paths));
      const got = await rejection(readListsInWorker({ paths }));
      assert.ok(got instanceof ListFormatError, `${got.name}: ${got.message}`);
      assert.equal(got.message, expected.message);
    }
    const forced = await rejection(readListsInWorker({ paths: [path.join(fixtures, 'bis/dpl.txt')], format: 'ofac-legacy' }));
    assert.ok(forced instanceof ListFormatError && /dpl\.txt: cannot be read as ofac-legacy/.test(forced.message), forced.message);
  });

  test('a list with one entry id twice comes back refused as a ListImportError; the other lists are imported', async () => {
    const folder = path.join(scratch, 'duplicate');
    fs.mkdirSync(folder);
    const rows = fs.readFileSync(path.join(fixtures, 'ofac/sdn.csv'), 'latin1').split('\r\n');
    fs.writeFileSync(path.join(folder, 'sdn.csv'), [rows[0], ...rows].join('\r\n'), 'latin1');
    fs.copyFileSync(path.join(fixtures, 'bis/dpl.txt'), path.join(folder, 'dpl.txt'));

    const read = await readListsInWorker({ paths: [folder] });
    const sdn = read.find((l) => l.list === 'OFAC_SDN');
    assert.ok(sdn && 'error' in sdn && sdn.error instanceof ListImportError, JSON.stringify(sdn));
    assert.equal(sdn.error.message, 'OFAC_SDN: entry id "10001" appears more than once');

    const outcomes = await importListFiles(database.db.lists, [folder]);
    assert.deepEqual(
      outcomes.map((o) => [o.list, o.status]),
      [
        ['BIS_DPL', 'imported'],
        ['OFAC_SDN', 'refused'],
      ],
    );
    assert.equal(outcomes[1]?.status === 'refused' && outcomes[1].reason, 'OFAC_SDN: entry id "10001" appears more than once');
  });

  test('one thread reads request after request, in turn; one that died is replaced by the next read', async () => {
    const dpl = [path.join(fixtures, 'bis/dpl.txt')];
    const sdn = [path.join(fixtures, 'ofac')];
    const expected = async (paths: string[]) => (await readListSources(paths)).map((list) => ({ list: list.list, prepared: prepareList(list) }));

    // Sent together, answered each with its own lists: the thread takes them one at a time.
    const [first, second, third] = await Promise.all([readListsInWorker({ paths: sdn }), readListsInWorker({ paths: dpl }), readListsInWorker({ paths: sdn })]);
    assert.deepEqual(first, await expected(sdn));
    assert.deepEqual(second, await expected(dpl));
    assert.deepEqual(third, first);
    const kept = listReaderThreadId();
    assert.ok(kept !== undefined);
    await readListsInWorker({ paths: dpl });
    assert.equal(listReaderThreadId(), kept, 'the same thread read again');

    await stopListReader();
    assert.equal(listReaderThreadId(), undefined);
    assert.deepEqual(await readListsInWorker({ paths: dpl }), await expected(dpl));
    const replacement = listReaderThreadId();
    assert.ok(replacement !== undefined && replacement !== kept, `thread ${replacement} replaced ${kept}`);
  });
});
