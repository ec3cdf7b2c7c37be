/**
 * The service's screening index on a thread of its own. Built on the service's thread, a new
 * index and the old one lived together on the heap that answers every request, and the garbage
 * collection that followed (marking some 200 MB of small objects on a busy core) held requests
 * back for hundreds of milliseconds on every refresh (bench:lists-refresh, BENCHMARKS.md). Here
 * each snapshot's index is built on a thread of its own, with a heap of its own, while the
 * previous snapshot's thread keeps answering; once built it answers the screenings of its
 * snapshot, and lets its index go when a newer snapshot has taken over and its last answer is
 * sent. The thread is then kept, and the next snapshot built on it (spare-index-threads.ts).
 *
 * The entities cross as the JSON texts the service keeps them in (stored-entries.ts): blocks of
 * shared memory that the new thread reads in place (packed-texts.ts) and parses; the matches come
 * back by structured clone.
 */
import { requestSignals } from '../background-priority.ts';
import { AppError } from '../http/errors.ts';
import type { ScreeningMatch } from '../screening/match-types.ts';
import { DEFAULT_SLICE_MS, inSlices } from '../screening/steps.ts';
import type { FromIndexThread, ToIndexThread } from './index-thread-task.ts';
import { type ListIndex, unpackedRaritySteps } from './list-index.ts';
import type { PackedTexts } from './packed-texts.ts';
import { keepIndexThread, keepNewIndexThread, takeIndexThread } from './spare-index-threads.ts';

export type IndexThread = ListIndex & {
  /** The thread's id: a snapshot built on a retired snapshot's thread has that thread's id. */
  readonly threadId: number;
  /**
   * A newer snapshot has taken over: the thread keeps answering for `lingerMs` (a request may hold
   * this snapshot across a statement or two), then, once what it was asked is answered, lets its
   * index go; the thread is kept to build the next snapshot on (spare-index-threads.ts).
   */
  retire(): void;
  /** Stops the thread now (the service is closing): what it was still asked fails. */
  stop(): void;
};

export type IndexThreadOptions = {
  /** Called if the thread stops on its own after its index was built: every screening asked of it since fails. */
  onLost?: (error: Error) => void;
  /** The thread's script: index-thread-worker.js; a test starts one that stops when told to. */
  script?: URL;
  /** How long a retired thread keeps answering; default LINGER_MS. */
  lingerMs?: number;
};

/** Far longer than a request holds a snapshot between taking it and screening against it. */
const LINGER_MS = 60_000;

const WORKER = new URL('./index-thread-worker.js', import.meta.url);

/** For a serving process, once its first snapshot is built: a thread for the next (spare-index-threads.ts). */
export const prepareNextIndexThread = (): void => keepNewIndexThread(WORKER, { signals: requestSignals() });

/**
 * Starts a thread (or takes the one kept), shares the entities with it (as JSON texts,
 * stored-entries.ts, in the order the index numbers them) and resolves once its index is built.
 */
export async function startIndexThread(parts: readonly PackedTexts[], options: IndexThreadOptions = {}): Promise<IndexThread> {
  // Keeps the process running while it builds and while a screening waits on it, never while idle: the
  // index serves a process, it does not keep one running (nor, retired, through its linger).
  const script = options.script ?? WORKER;
  const worker = takeIndexThread(script, { signals: requestSignals() });
  const pending = new Map<number, { resolve: (matches: ScreeningMatch[]) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  /** Retired, and past its linger: let go when nothing asked of it is left. */
  let retiring = false;
  let lost: Error | undefined;
  let built: ((message: Extract<FromIndexThread, { kind: 'built' }>) => void) | undefined;
  let buildFailed: ((error: Error) => void) | undefined;

  const fail = (error: Error) => {
    if (lost) return;
    lost = error;
    for (const request of pending.values()) request.reject(unavailable(error));
    pending.clear();
    if (buildFailed) buildFailed(error);
    else if (!retiring) options.onLost?.(error);
  };
  const onMessage = (message: FromIndexThread) => {
    if (message.kind === 'built') built?.(message);
    else if (message.kind === 'answer') settle(message.id, (request) => request.resolve(message.matches));
    else if (message.kind === 'emptied')
      return; // answered once this thread is let go, to spare-index-threads.ts
    else if (message.id === undefined) fail(new Error(`the index thread could not build its index: ${message.error.message}`));
    else settle(message.id, (request) => request.reject(new Error(message.error.message)));
  };
  const onError = (error: Error) => fail(error);
  const onExit = (code: number) => fail(new Error(`the index thread stopped (exit code ${code})`));
  worker.on('message', onMessage);
  worker.on('error', onError);
  worker.on('exit', onExit);
  /** Let go or stopped: the worker is another snapshot's now, or ends. */
  let gone = false;
  /** Past its linger, with nothing left to answer: the thread is emptied and kept for the next snapshot. */
  const letGo = () => {
    gone = true;
    worker.off('message', onMessage);
    worker.off('error', onError);
    worker.off('exit', onExit);
    if (lost) return void worker.terminate(); // a thread that failed is not built on again
    lost = new Error('the index thread was retired');
    keepIndexThread(worker, script);
  };
  const settle = (id: number, outcome: (request: { resolve: (m: ScreeningMatch[]) => void; reject: (e: Error) => void }) => void) => {
    const request = pending.get(id);
    if (!request) return;
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    outcome(request);
    if (retiring && pending.size === 0 && !gone) letGo();
  };

  const ready = new Promise<Extract<FromIndexThread, { kind: 'built' }>>((resolve, reject) => {
    built = resolve;
    buildFailed = reject;
  });
  ready.catch(() => undefined); // awaited below; a failure while the entities are still being sent is not unhandled
  const send = (message: ToIndexThread) => worker.postMessage(message);
  try {
    for (const texts of parts) send({ kind: 'entities', texts });
    send({ kind: 'build' });
    const { entityCount, nameCount, rarity: packed } = await ready;
    buildFailed = undefined;
    // Unpacked here, in slices, before the snapshot serves: the re-evaluation that follows every new version asks for it first thing.
    const rarity = await inSlices(unpackedRaritySteps(packed), DEFAULT_SLICE_MS);
    worker.unref();
    return {
      threadId: worker.threadId,
      entityCount,
      nameCount,
      rarity: () => rarity,
      screen(query, screenOptions) {
        if (lost) return Promise.reject(unavailable(lost));
        const id = nextId++;
        return new Promise((resolve, reject) => {
          pending.set(id, { resolve, reject });
          worker.ref();
          send({ kind: 'screen', id, query, ...(screenOptions && { options: screenOptions }) });
        });
      },
      retire() {
        const lingered = () => {
          retiring = true;
          if (pending.size === 0 && !gone) letGo();
        };
        setTimeout(lingered, options.lingerMs ?? LINGER_MS).unref();
      },
      stop() {
        retiring = true;
        if (gone) return;
        gone = true;
        void worker.terminate();
      },
    };
  } catch (error) {
    retiring = true;
    void worker.terminate();
    throw error;
  }
}

/** A screening its index can no longer answer: the lists are reloaded by the next poll. */
function unavailable(cause: Error): AppError {
  return new AppError('lists_unavailable', `The screening index stopped (${cause.message}); the lists are being loaded again. Try again shortly.`);
}
