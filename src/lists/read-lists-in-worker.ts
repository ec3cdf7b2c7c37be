/**
 * Reads, parses and prepares list files in a worker thread: parsing every list and hashing every
 * entry takes seconds of CPU, which on the service's own thread would stall every request for as
 * long. The results come back by structured clone, mostly as strings (prepared-list.ts), and the
 * worker's errors are raised here again as the same kinds with the same messages.
 *
 * The thread is started on first use and kept for the next read. Starting one costs about half a
 * second of CPU (the thread's bootstrap, tsx's loader and the modules), the first tenth of it at
 * the process's own priority, before the thread can lower itself: a refresh that started a thread
 * each time spent that beside the requests it was meant to leave alone. Idle, the thread keeps no
 * process running; if it dies, the read under way fails and the next starts another.
 */
import type { Worker } from 'node:worker_threads';
import { ListFormatError } from '../screening/lists/list-format-error.ts';
import type { ListCode } from '../screening/model.ts';
import { startBackgroundThread } from './background-thread.ts';
import { ListImportError } from './list-content.ts';
import type { PreparedList } from './prepared-list.ts';
import type { ReadListsMessage, ReadListsRequest, SentError } from './read-lists-task.ts';

/** A list read and prepared, or one that cannot become a version (ListImportError: two entries with one id). */
export type ReadList = { list: ListCode; prepared: PreparedList } | { list: ListCode; error: ListImportError };

const WORKER = new URL('./read-lists-worker.js', import.meta.url);

let reader: Worker | undefined;
/** The thread reads one request at a time: each waits for the one before it, however that ended. */
let queue: Promise<unknown> = Promise.resolve();

export function readListsInWorker(request: ReadListsRequest): Promise<ReadList[]> {
  const turn = queue.then(() => readWith(reader ?? startReader(), request));
  queue = turn.catch(() => undefined);
  return turn;
}

/** The reading thread's id while one is kept (diagnostics, tests). */
export const listReaderThreadId = (): number | undefined => reader?.threadId;

/** Ends the kept thread; a read under way fails, the next starts another. */
export async function stopListReader(): Promise<void> {
  const stopping = reader;
  reader = undefined;
  await stopping?.terminate();
}

function startReader(): Worker {
  const worker = startBackgroundThread(WORKER);
  worker.unref();
  // Listened to for as long as the thread lives, so that an error while idle is not thrown at the process.
  worker.on('error', () => retire(worker));
  worker.on('exit', () => retire(worker));
  reader = worker;
  return worker;
}

function retire(worker: Worker) {
  if (reader === worker) reader = undefined;
  void worker.terminate();
}

function readWith(worker: Worker, request: ReadListsRequest): Promise<ReadList[]> {
  return new Promise((resolve, reject) => {
    const lists: ReadList[] = [];
    const settle = (outcome: () => void) => {
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      worker.unref();
      outcome();
    };
    const onMessage = (message: ReadListsMessage) => {
      if (message.kind === 'list') lists.push({ list: message.prepared.list, prepared: message.prepared });
      else if (message.kind === 'refused') lists.push({ list: message.list, error: raised(message.error) as ListImportError });
      else if (message.kind === 'done') settle(() => resolve(lists));
      else settle(() => reject(raised(message.error)));
    };
    const onError = (error: Error) => settle(() => reject(error));
    const onExit = (code: number) => settle(() => reject(new Error(`the list-reading worker stopped (exit code ${code}) before it had read every list`)));
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.ref(); // a read under way keeps the process running until it is answered
    worker.postMessage(request);
  });
}

/** The worker's error as the kind it was. */
function raised(error: SentError): Error {
  const Kind = error.name === 'ListFormatError' ? ListFormatError : error.name === 'ListImportError' ? ListImportError : Error;
  const out = new Kind(error.message);
  if (Kind === Error) out.name = error.name;
  if (error.stack) out.stack = error.stack;
  return out;
}
