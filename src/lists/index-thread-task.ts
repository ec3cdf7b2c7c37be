/**
 * What the index thread does (index-thread-worker.js starts it, index-thread.ts drives it): parse
 * the snapshot's entities from the texts it is given (shared memory, read in place), build the
 * screening index over them at once (this thread answers nothing until then), then answer one
 * screening after another; once retired, let them go and build the next snapshot's
 * (spare-index-threads.ts). Everything it allocates lives on this thread's own heap, which the
 * service's thread never has to collect.
 */
import type { MessagePort } from 'node:worker_threads';
import { pausesOnThread } from '../background-priority.ts';
import type { ScreeningMatch, SubjectQuery } from '../screening/match-types.ts';
import type { ListEntity } from '../screening/model.ts';
import { type ScreeningIndex, screeningIndexSteps } from '../screening/screening-index.ts';
import { DEFAULT_SLICE_MS } from '../screening/steps.ts';
import { collectGarbage } from './background-thread.ts';
import { type PackedRarity, packedRarity, receivedOptions, type SentScreeningOptions } from './list-index.ts';
import { type PackedTexts, textAt, textCount } from './packed-texts.ts';

export type ToIndexThread =
  /** The next entities, as JSON texts in shared memory. */
  | { kind: 'entities'; texts: PackedTexts }
  | { kind: 'build' }
  | { kind: 'screen'; id: number; query: SubjectQuery; options?: SentScreeningOptions }
  /** The snapshot is retired: let its index and entities go, to build the next one here (spare-index-threads.ts). */
  | { kind: 'empty' };

export type FromIndexThread =
  | { kind: 'built'; entityCount: number; nameCount: number; rarity: PackedRarity }
  | { kind: 'answer'; id: number; matches: ScreeningMatch[] }
  | { kind: 'emptied' }
  /** `id` absent: the build failed. */
  | { kind: 'failed'; id?: number; error: { name: string; message: string } };

/** `signals`: the serving thread's requestSignals(), to give way to its requests until this thread serves. */
export function serveIndex(port: Pick<MessagePort, 'on' | 'postMessage'>, signals: SharedArrayBuffer): void {
  let entities: ListEntity[] = [];
  let index: ScreeningIndex | undefined;
  let warm = false;
  const send = (message: FromIndexThread) => port.postMessage(message);
  // Until it serves, this thread gives way to the serving thread's requests (background-priority.ts).
  const pause = pausesOnThread(signals, DEFAULT_SLICE_MS);
  port.on('message', (message: ToIndexThread) => {
    if (message.kind === 'entities') {
      for (let i = 0; i < textCount(message.texts); i++) {
        entities.push(JSON.parse(textAt(message.texts, i)) as ListEntity);
        pause();
      }
    } else if (message.kind === 'build') {
      try {
        const steps = screeningIndexSteps(entities);
        let step = steps.next();
        for (; !step.done; step = steps.next()) pause();
        index = step.value;
        // No full collection here: its one pause (65 to 245 ms on a shared core) held back every
        // request that arrived during it, while V8's own marking of the build's garbage goes on in
        // steps and on its lowered helper threads (bench:index-swap, BENCHMARKS.md).
        // A thread that built before (spare-index-threads.ts) has its code compiled already.
        if (!warm) warmUp(index, entities, pause);
        warm = true;
        send({ kind: 'built', entityCount: index.entityCount, nameCount: index.nameCount, rarity: packedRarity(index.rarity()) });
      } catch (error) {
        send({ kind: 'failed', error: sent(error) });
      }
    } else if (message.kind === 'empty') {
      entities = [];
      index = undefined;
      // While nothing waits on this thread: the next build starts from an empty heap, as on a new thread.
      collectGarbage();
      send({ kind: 'emptied' });
    } else {
      try {
        if (!index) throw new Error('the index thread was asked to screen before its index was built');
        send({ kind: 'answer', id: message.id, matches: index.screen(message.query, receivedOptions(message.options)) });
      } catch (error) {
        send({ kind: 'failed', id: message.id, error: sent(error) });
      }
    }
  });
}

/** Screenings run before the first real one: about half a second of this thread's time. */
const WARM_UP_SCREENINGS = 300;

/**
 * A new thread's first screenings run as unoptimized code, several times slower than the
 * previous thread's, and requests queued behind them: the swap showed as a train of slow answers
 * (bench:lists-refresh). Screening the lists' own names first, spread over every list, gets the
 * engine compiled and its caches filled while the previous thread still answers.
 */
function warmUp(index: ScreeningIndex, entities: readonly ListEntity[], pause: () => void): void {
  const step = Math.max(1, Math.floor(entities.length / WARM_UP_SCREENINGS));
  for (let i = 0; i < entities.length; i += step) {
    const entity = entities[i] as ListEntity;
    const name = entity.names[0]?.full;
    if (name) index.screen({ name, kind: entity.type === 'person' ? 'person' : 'organization' });
    pause();
  }
}

function sent(error: unknown): { name: string; message: string } {
  return error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) };
}
