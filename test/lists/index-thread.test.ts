/**
 * The service's screening index on a thread of its own: it answers as the same index built in
 * place would (per-list thresholds included), a retired thread still answers what it was asked,
 * and a retired thread is kept and the next snapshot built on it, answering for that snapshot only;
 * a thread that stops fails its screenings with a 503 problem, after which the catalog builds the
 * same snapshot again at its next poll.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { AppError } from '../../src/http/errors.ts';
import { openListCatalog } from '../../src/lists/catalog.ts';
import { startIndexThread } from '../../src/lists/index-thread.ts';
import { importList } from '../../src/lists/list-import.ts';
import { indexInPlace } from '../../src/lists/list-index.ts';
import { packTexts } from '../../src/lists/packed-texts.ts';
import { keptIndexThreads } from '../../src/lists/spare-index-threads.ts';
import { buildScreeningIndex } from '../../src/screening/screening-index.ts';
import { openTestDatabase } from '../helpers/test-database.ts';
import { sdnList, uvlList } from '../helpers/test-lists.ts';

const RETIRING = path.resolve('test/helpers/retired-index-thread.ts');
const STOPPING = new URL('../helpers/index-thread-that-stops.js', import.meta.url);
const entities = [...sdnList().entities, ...uvlList().entities];
const texts = [packTexts(entities.map((e) => JSON.stringify(e)))];
const QUERIES = [
  { name: 'Dmitri Volkov', kind: 'person' as const, dateOfBirth: { year: 1970 } },
  { name: 'Karim Abu Ali', kind: 'any' as const },
  { name: 'Quillon Precision', kind: 'organization' as const },
  { name: 'Northwind Maritime', kind: 'organization' as const, lists: ['OFAC_SDN'] },
];

describe('the index thread', () => {
  test('answers every screening as the same index built in place, with one threshold or one per list', async () => {
    const thread = await startIndexThread(texts);
    try {
      const inPlace = indexInPlace(buildScreeningIndex(entities));
      assert.equal(thread.entityCount, entities.length);
      assert.equal(thread.nameCount, inPlace.nameCount);
      assert.deepEqual([...thread.rarity().counts], [...inPlace.rarity().counts]);
      for (const threshold of [undefined, 0.5, { lists: { OFAC_SDN: 0.99 }, otherwise: 0.6 }]) {
        for (const query of QUERIES) {
          const options = { limit: 5, ...(threshold !== undefined && { threshold }) };
          assert.deepEqual(await thread.screen(query, options), await inPlace.screen(query, options), `${query.name} at ${JSON.stringify(threshold)}`);
        }
      }
      // The per-list threshold is applied per list: Volkov's SDN entry needs 0.99 there, the Unverified List 0.6.
      const strict = await thread.screen({ name: 'Dmitry Volkoff', kind: 'person' }, { threshold: { lists: { OFAC_SDN: 0.99 }, otherwise: 0.6 } });
      assert.ok(strict.every((m) => m.entity.list !== 'OFAC_SDN' || m.score >= 0.99));
    } finally {
      thread.stop();
    }
  });

  test('a retired thread answers what it was asked, and what a request holding its snapshot asks while it lingers, then stops', async () => {
    const thread = await startIndexThread(texts, { lingerMs: 200 });
    const asked = QUERIES.map((q) => thread.screen(q));
    thread.retire();
    const answers = await Promise.all(asked);
    assert.ok(
      answers[0]?.some((m) => m.entity.entryId === '20001'),
      'Volkov found by the retiring thread',
    );
    const late = await thread.screen(QUERIES[0] as (typeof QUERIES)[number]);
    assert.equal(late[0]?.entity.entryId, '20001', 'a request that took the snapshot before the swap is still answered');
    await new Promise((resolve) => setTimeout(resolve, 400));
    await assert.rejects(
      thread.screen(QUERIES[0] as (typeof QUERIES)[number]),
      (error: unknown) => error instanceof AppError && error.code === 'lists_unavailable',
    );
  });

  test('keeps a process running while it builds and answers, and not through a retired linger, nor once kept', async () => {
    // The build and the screening are seen to the end; then the process ends without waiting out the
    // minute its retired thread lingers, as it did while a 'message' listener kept the thread referenced;
    // and, told to wait until its thread is kept for the next snapshot, it ends once that is done.
    for (const [args, printed] of [
      [[], '20001'],
      [['--until-kept'], '20001 kept'],
    ] as const) {
      const ended = await promisify(execFile)(process.execPath, ['--import', 'tsx', RETIRING, ...args], { timeout: 30_000 }).catch(
        (error: { killed: boolean; stdout: string; stderr: string }) => error,
      );
      assert.ok(!('killed' in ended && ended.killed), `the process (${args.join(' ')}) was still running after 30 s`);
      assert.equal(ended.stdout, printed, ended.stderr);
    }
  });

  test('a text that is not an entity fails the start, naming why', async () => {
    await assert.rejects(startIndexThread([packTexts(['{"list": "OFAC_SDN"', ...entities.map((e) => JSON.stringify(e))])]), /JSON|Unexpected|Unterminated/);
  });

  test('a thread that stops fails its screenings with 503 lists_unavailable, and says so once', async () => {
    const lost: Error[] = [];
    const thread = await startIndexThread(texts, { script: STOPPING, onLost: (error) => lost.push(error) });
    // Answered in order: what was asked before the thread stopped has its answer.
    const before = thread.screen(QUERIES[0] as (typeof QUERIES)[number]);
    const stopping = thread.screen({ name: 'Stop Now', kind: 'any' });
    const alongside = thread.screen(QUERIES[1] as (typeof QUERIES)[number]);
    assert.equal((await before)[0]?.entity.entryId, '20001');
    for (const request of [stopping, alongside]) {
      await assert.rejects(request, (error: unknown) => error instanceof AppError && error.code === 'lists_unavailable' && /exit code 3/.test(error.message));
    }
    await assert.rejects(
      thread.screen(QUERIES[1] as (typeof QUERIES)[number]),
      (error: unknown) => error instanceof AppError && error.code === 'lists_unavailable',
    );
    assert.equal(lost.length, 1);
  });
});

describe('a retired thread, kept for the next snapshot', () => {
  test('builds the next snapshot and answers for it alone, as a new thread would', async () => {
    const first = await startIndexThread([packTexts(sdnList().entities.map((e) => JSON.stringify(e)))], { lingerMs: 20 });
    assert.equal((await first.screen(QUERIES[0] as (typeof QUERIES)[number]))[0]?.entity.entryId, '20001');
    first.retire();
    await until(() => keptIndexThreads() === 1, 'the retired thread was never kept');
    await assert.rejects(
      first.screen(QUERIES[0] as (typeof QUERIES)[number]),
      (error: unknown) => error instanceof AppError && error.code === 'lists_unavailable',
    );

    // The next snapshot holds the Unverified List alone: nothing of the first may answer through it.
    const next = await startIndexThread([packTexts(uvlList().entities.map((e) => JSON.stringify(e)))]);
    try {
      assert.equal(next.threadId, first.threadId, 'built on the kept thread');
      assert.equal(keptIndexThreads(), 0);
      const inPlace = buildScreeningIndex(uvlList().entities);
      assert.equal(next.entityCount, inPlace.entityCount);
      for (const query of QUERIES) assert.deepEqual(await next.screen(query), inPlace.screen(query), query.name);
      assert.deepEqual(await next.screen(QUERIES[0] as (typeof QUERIES)[number]), [], "the first snapshot's Volkov is gone");
      assert.deepEqual([...next.rarity().counts], [...inPlace.rarity().counts]);
    } finally {
      next.stop();
    }
  });

  test('one thread is kept at most; stopping a snapshot that was let go leaves the kept thread alone', async () => {
    const threads = await Promise.all([startIndexThread(texts, { lingerMs: 20 }), startIndexThread(texts, { lingerMs: 20 })]);
    assert.notEqual(threads[0]?.threadId, threads[1]?.threadId);
    for (const thread of threads) thread.retire();
    await until(() => keptIndexThreads() === 1, 'no retired thread was kept');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(keptIndexThreads(), 1, 'the second retired thread was ended, not kept');
    for (const thread of threads) thread.stop(); // as a closing catalog stops its last snapshot
    const next = await startIndexThread(texts);
    try {
      assert.ok(
        threads.some((t) => t.threadId === next.threadId),
        'the kept thread still builds',
      );
      assert.equal((await next.screen(QUERIES[0] as (typeof QUERIES)[number]))[0]?.entity.entryId, '20001');
    } finally {
      next.stop();
    }
  });
});

async function until(condition: () => boolean, failure: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; !condition(); ) {
    assert.ok(Date.now() < deadline, failure);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a catalog whose index thread stops', () => {
  const opened = openTestDatabase();
  after(async () => (await opened).close());

  test('reports it, and builds the same snapshot again at the next poll', async () => {
    const database = await opened;
    await importList(database.db.lists, sdnList());
    const errors: unknown[] = [];
    const catalog = await openListCatalog(database.db.lists, {
      refreshSeconds: 3600,
      expectedLists: [],
      onError: (error) => errors.push(error),
      startIndex: (parts, options) => startIndexThread(parts, { ...options, script: STOPPING }),
    });
    try {
      const first = catalog.current();
      await assert.rejects(first?.index.screen({ name: 'Stop Now', kind: 'any' }) as Promise<unknown>, /lists are being loaded again/);
      assert.equal(errors.length, 1);
      assert.equal(await catalog.refresh(), true, 'the same versions are loaded again');
      const again = catalog.current();
      assert.notEqual(again, first);
      assert.deepEqual(
        again?.versions.map((v) => v.id),
        first?.versions.map((v) => v.id),
      );
      assert.equal((await again?.index.screen({ name: 'Dmitri Volkov', kind: 'person' }))?.[0]?.entity.entryId, '20001');
    } finally {
      catalog.close();
    }
  });
});
