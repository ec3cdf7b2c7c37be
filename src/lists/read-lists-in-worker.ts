/**
 * Reads, parses and prepares list files in a worker thread: parsing every list and hashing every
 * entry takes seconds of CPU, which on the service's own thread would stall every request for as
 * long. The results come back by structured clone, mostly as strings (prepared-list.ts), and the
 * worker's errors are raised here again as the same kinds with the same messages.
 */
import { Worker } from 'node:worker_threads';
import { ListFormatError } from '../screening/lists/list-format-error.ts';
import type { ListCode } from '../screening/model.ts';
import { ListImportError } from './list-content.ts';
import type { PreparedList } from './prepared-list.ts';
import type { ReadListsMessage, ReadListsRequest, SentError } from './read-lists-task.ts';

/** A list read and prepared, or one that cannot become a version (ListImportError: two entries with one id). */
export type ReadList = { list: ListCode; prepared: PreparedList } | { list: ListCode; error: ListImportError };

const WORKER = new URL('./read-lists-worker.js', import.meta.url);

export function readListsInWorker(request: ReadListsRequest): Promise<ReadList[]> {
  return new Promise((resolve, reject) => {
    const lists: ReadList[] = [];
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      outcome();
    };
    const worker = new Worker(WORKER, { workerData: request });
    worker.on('message', (message: ReadListsMessage) => {
      if (message.kind === 'list') lists.push({ list: message.prepared.list, prepared: message.prepared });
      else if (message.kind === 'refused') lists.push({ list: message.list, error: raised(message.error) as ListImportError });
      else if (message.kind === 'done') settle(() => resolve(lists));
      else settle(() => reject(raised(message.error)));
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) => settle(() => reject(new Error(`the list-reading worker stopped (exit code ${code}) before it had read every list`))));
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
