/**
 * A serving process lowers V8's helper threads, which collect the garbage a list being parsed in
 * the background makes, and leaves its main thread, which answers requests, as it was. Run in a
 * process of its own: what is lowered cannot be raised again, and the test runner's own threads
 * should not be.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { describe, test } from 'node:test';
import { BACKGROUND_NICE } from '../src/thread-priority.ts';

type Thread = { name: string; nice: number; main: boolean };

/** What a fresh process reports about its threads after lowering V8's helpers. */
function threadsAfterLowering(): { lowered: number; threads: Thread[] } {
  const script = `
    import fs from 'node:fs';
    import { lowerV8HelperThreads } from './src/thread-priority.ts';
    const lowered = lowerV8HelperThreads();
    const threads = fs.readdirSync('/proc/self/task').map((id) => {
      const stat = fs.readFileSync('/proc/self/task/' + id + '/stat', 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return { name: fs.readFileSync('/proc/self/task/' + id + '/comm', 'utf8').trim(), nice: Number(fields[16]), main: Number(id) === process.pid };
    });
    console.log(JSON.stringify({ lowered, threads }));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

const namesHelpers = () => fs.readdirSync('/proc/self/task').some((id) => fs.readFileSync(`/proc/self/task/${id}/comm`, 'utf8').trim() === 'V8Worker');

describe('thread priorities of a serving process', () => {
  const linux = os.platform() === 'linux';
  const skip = !linux
    ? 'only Linux gives a thread its own nice value; elsewhere nothing is lowered'
    : !namesHelpers()
      ? `Node ${process.version} does not name V8's helper threads, so none can be told apart and none is lowered`
      : false;

  test("V8's helper threads are lowered to the background priority; the main thread keeps its own", { skip }, () => {
    const { lowered, threads } = threadsAfterLowering();
    const helpers = threads.filter((t) => t.name === 'V8Worker');
    assert.ok(helpers.length > 0, 'the process has helper threads');
    assert.equal(lowered, helpers.length);
    for (const helper of helpers) assert.equal(helper.nice, BACKGROUND_NICE);
    const main = threads.find((t) => t.main);
    assert.equal(main?.nice, 0, 'the thread that answers requests is not lowered');
  });
});
