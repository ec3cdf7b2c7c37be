/**
 * Run as a process of its own by index-thread.test.ts, with nothing else to keep it running:
 * builds an index thread, prints the entry id of its best match for one screening, retires it.
 * With `--until-kept`, the thread lingers briefly and the process waits until it is kept for the
 * next snapshot (spare-index-threads.ts), then has nothing left to do.
 */
import { startIndexThread } from '../../src/lists/index-thread.ts';
import { packTexts } from '../../src/lists/packed-texts.ts';
import { keptIndexThreads } from '../../src/lists/spare-index-threads.ts';
import { sdnList } from './test-lists.ts';

const untilKept = process.argv.includes('--until-kept');
const thread = await startIndexThread([packTexts(sdnList().entities.map((e) => JSON.stringify(e)))], untilKept ? { lingerMs: 20 } : {});
const [match] = await thread.screen({ name: 'Dmitri Volkov', kind: 'person' });
process.stdout.write(match?.entity.entryId ?? 'no match');
thread.retire();
if (untilKept) {
  const polling = setInterval(() => {
    if (keptIndexThreads() === 0) return;
    clearInterval(polling);
    process.stdout.write(' kept');
  }, 10);
}
