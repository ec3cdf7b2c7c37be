/**
 * The background threads' collections: they reclaim, and a thread terminated in the middle of one
 * (as the process ends, or a retired index thread stops) prints nothing. Standard output is the
 * CLI's JSON and the server's log lines; a stray line from V8 there once broke `lists update`.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

const HELPER = path.resolve('test/helpers/terminated-while-collecting.ts');

test('threads started to collect do reclaim, and terminated mid-collection they print nothing', async () => {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', HELPER]);
  assert.match(stderr, /^20 of 20 threads reclaimed what they let go of$/m);
  assert.equal(stdout, '');
});
