/**
 * Run as a process of its own by index-thread.test.ts, with nothing else to keep it running:
 * builds an index thread, prints the entry id of its best match for one screening, retires it.
 */
import { startIndexThread } from '../../src/lists/index-thread.ts';
import { packTexts } from '../../src/lists/packed-texts.ts';
import { sdnList } from './test-lists.ts';

const thread = await startIndexThread([packTexts(sdnList().entities.map((e) => JSON.stringify(e)))]);
const [match] = await thread.screen({ name: 'Dmitri Volkov', kind: 'person' });
process.stdout.write(match?.entity.entryId ?? 'no match');
thread.retire();
