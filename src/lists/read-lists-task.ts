/**
 * What the list-reading worker thread does (read-lists-worker.js starts it, read-lists-in-worker.ts
 * sends it one request at a time): read and parse the files, then prepare each list (hash and
 * serialize its entries), sending each list back as soon as it is ready. Errors go back as their
 * name and message, for the main thread to raise again.
 */
import type { MessagePort } from 'node:worker_threads';
import { type ListFormat, readListSources } from '../screening/lists/read-list-sources.ts';
import type { ListCode } from '../screening/model.ts';
import { collectGarbage } from './background-thread.ts';
import { ListImportError } from './list-content.ts';
import { type PreparedList, prepareList } from './prepared-list.ts';

export type ReadListsRequest = { paths: string[]; format?: ListFormat };

export type SentError = { name: string; message: string; stack?: string };

export type ReadListsMessage =
  | { kind: 'list'; prepared: PreparedList }
  /** This list cannot become a version (two entries with one id); the others can. */
  | { kind: 'refused'; list: ListCode; error: SentError }
  | { kind: 'done' }
  /** Nothing could be read: a file is missing, unreadable or not in its format. */
  | { kind: 'failed'; error: SentError };

/**
 * Answers each request the port brings. The thread is kept between reads, and a read of the SDN
 * leaves a hundred megabytes and more of garbage that V8 does not give back while the thread sits
 * idle: measured, a kept thread held 450 MB more after four SDN reads than a new thread for each.
 * A full collection after each read gives it back (15–110 ms, at this thread's low priority).
 */
export function serveReads(port: MessagePort): void {
  port.on('message', async (request: ReadListsRequest) => {
    await readAndPrepareLists(request, (message, transfer) => port.postMessage(message, transfer));
    collectGarbage();
  });
}

/** `send` posts a message, moving the buffers in `transfer` rather than copying them. */
export async function readAndPrepareLists(request: ReadListsRequest, send: (message: ReadListsMessage, transfer?: ArrayBuffer[]) => void): Promise<void> {
  try {
    const parsed = await readListSources(request.paths, request.format ? { format: request.format } : {});
    for (const list of parsed) {
      try {
        const prepared = prepareList(list);
        send({ kind: 'list', prepared }, [prepared.entryBytes.buffer as ArrayBuffer, prepared.rowEnds.buffer as ArrayBuffer]);
      } catch (error) {
        if (!(error instanceof ListImportError)) throw error;
        send({ kind: 'refused', list: list.list, error: sent(error) });
      }
    }
    send({ kind: 'done' });
  } catch (error) {
    send({ kind: 'failed', error: sent(error) });
  }
}

function sent(error: unknown): SentError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  return { name: error.name, message: error.message, ...(error.stack && { stack: error.stack }) };
}
