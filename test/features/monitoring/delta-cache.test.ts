/**
 * The delta cache monitoring shares between organizations' runs for one list version: built once
 * while runs keep asking, dropped once they stop, and never kept when its build failed (a kept
 * failure stopped every later run for the version until the process restarted).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createDeltaCache } from '../../../src/features/monitoring/delta-cache.ts';
import type { ListSnapshot } from '../../../src/lists/catalog.ts';
import type { ListVersion } from '../../../src/lists/list-store.ts';

const version = (id: string) => ({ id }) as ListVersion;
const snapshotOf = (versionId: string) => ({ versions: [version(versionId)] }) as ListSnapshot;

/** A cache over a build that counts its calls, on a clock the test moves. */
function harness(keepMs = 1_000) {
  let clock = 0;
  const builds: string[] = [];
  let failNext = false;
  const cache = createDeltaCache(
    async (v) => {
      builds.push(v.id);
      if (failNext) {
        failNext = false;
        throw new Error('the database went away');
      }
      return snapshotOf(v.id);
    },
    { keepMs, now: () => clock },
  );
  return {
    cache,
    builds,
    advance: (ms: number) => (clock += ms),
    failNextBuild: () => (failNext = true),
  };
}

describe('the delta cache of monitoring', () => {
  test("every organization's run for a version shares one build while they keep asking", async () => {
    const { cache, builds, advance } = harness(1_000);
    const first = await cache.of(version('lv_a'));
    for (let i = 0; i < 5; i++) {
      advance(900); // each ask within keepMs of the one before: 4.5 s in all, far past keepMs
      assert.equal(await cache.of(version('lv_a')), first);
    }
    assert.deepEqual(builds, ['lv_a']);
  });

  test('a delta nobody asks for is dropped by the next sweep, and built again if a run asks later', async () => {
    const { cache, builds, advance } = harness(1_000);
    await cache.of(version('lv_a'));
    await cache.of(version('lv_b'));
    advance(600);
    await cache.of(version('lv_b'));
    advance(600); // lv_a unasked for 1.2 s, lv_b for 0.6 s
    cache.sweep();
    assert.deepEqual(cache.kept(), ['lv_b']);
    await cache.of(version('lv_a'));
    assert.deepEqual(builds, ['lv_a', 'lv_b', 'lv_a']);
  });

  test('a build that failed is not kept: the next run for the version builds it again', async () => {
    const { cache, builds, failNextBuild } = harness();
    failNextBuild();
    await assert.rejects(cache.of(version('lv_a')), /the database went away/);
    assert.deepEqual(cache.kept(), []);
    assert.deepEqual((await cache.of(version('lv_a'))).versions, [version('lv_a')]);
    assert.deepEqual(builds, ['lv_a', 'lv_a']);
  });
});
