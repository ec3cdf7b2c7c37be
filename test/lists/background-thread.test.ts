/**
 * The background threads' heaps. Their collections reclaim, and a thread terminated in the middle
 * of one (as the process ends, or a retired index thread stops) prints nothing: standard output is
 * the CLI's JSON and the server's log lines, and a stray line from V8 there once broke `lists
 * update`. Their young generation stays small under the service's own flags, so that no scavenge
 * of theirs holds the core for long (background-thread.ts).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { BACKGROUND_SEMI_SPACE_MB } from '../../src/lists/background-thread.ts';

const HELPER = path.resolve('test/helpers/terminated-while-collecting.ts');
const YOUNG_GENERATION_HELPER = path.resolve('test/helpers/young-generation-of-threads.ts');
const MiB = 1024 * 1024;

test('threads started to collect do reclaim, and terminated mid-collection they print nothing', async () => {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', HELPER]);
  assert.match(stderr, /^20 of 20 threads reclaimed what they let go of$/m);
  assert.equal(stdout, '');
});

test("a background thread's young generation stays small in a process started as the service is", async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--max-semi-space-size=32', '--import', 'tsx', YOUNG_GENERATION_HELPER]);
  const newSpace = JSON.parse(stdout) as { background: number; plain: number };
  // The same allocation grew a thread started plainly to the process's two 32 MiB semi-spaces.
  assert.ok(newSpace.plain >= 32 * MiB, `a plain thread's new space: ${newSpace.plain} bytes`);
  assert.ok(newSpace.background <= 2 * BACKGROUND_SEMI_SPACE_MB * MiB, `a background thread's new space: ${newSpace.background} bytes`);
});
