/**
 * Reads of personal data, appended to their organization's audit chain in batches.
 *
 * A write records its event in its own transaction (audit.ts). A read does not: appending locks
 * the organization's chain head until commit, so every GET would become a write that waits its
 * turn behind the organization's other requests. Instead a read costs a push onto this process's
 * queue for its organization, and each queue is appended by a short transaction of its own
 * (one statement with its COMMIT) `flushAfterMs` after its first pending read, or at once when
 * `maxBatch` are pending. The events are the chain's ordinary events: same hash, same verifier.
 *
 * Order: an organization's batches are appended one after the other, so its reads keep their
 * order; a read's `occurred_at` is when it was answered, so a write answered after it may come
 * before it in the chain, by up to `flushAfterMs` (more while the database refuses the append).
 *
 * Failures: a batch the database refuses stays at the head of its queue, is reported to
 * `onError`, and is tried again later (waiting longer after each failure, up to a minute).
 * `close()`, on graceful shutdown, appends everything still pending, trying a few times.
 * A crash loses the reads answered in the last `flushAfterMs` and any batch still being appended:
 * their answers were sent, their records were not.
 */
import type { WithTenant } from '../db/tenant.ts';
import { type AuditContext, type AuditEvent, auditEventInput, recordAuditInputs } from './audit.ts';
import type { AuditEventInput } from './audit-store.ts';

export type ReadTrailOptions = {
  /** The longest a read waits in memory before its batch is appended (while the database accepts it). */
  flushAfterMs: number;
  /** A batch this large is appended at once. */
  maxBatch: number;
  /** A batch could not be appended: `pending` reads wait in memory to be tried again. */
  onError(error: unknown, pending: number): void;
};

/** A tenth of a second: at 200 reads a second, one transaction appends about 20 of them. */
export const READ_TRAIL_DEFAULTS = { flushAfterMs: 100, maxBatch: 100 } as const;

export type ReadTrail = {
  /** Queues the read, stamped now, for its organization's chain. */
  record(context: AuditContext, event: AuditEvent): void;
  /** Appends what is pending (one organization's, or every one's) and resolves once tried; a failure is reported, and kept. */
  flush(organizationId?: string): Promise<void>;
  /** Stops the timer and appends everything still pending; what still cannot be written is reported to onError. */
  close(): Promise<void>;
  pendingCount(): number;
};

const RETRY_MAX_MS = 60_000;
const CLOSE_ATTEMPTS = 3;

/** An organization's pending reads, the append in progress, and whether another is already chained after it. */
type Queue = { pending: AuditEventInput[]; appending: Promise<void>; chained: boolean };

export function createReadTrail(withTenant: WithTenant, options: ReadTrailOptions): ReadTrail {
  const queues = new Map<string, Queue>();
  let timer: NodeJS.Timeout | undefined;
  let failures = 0;
  let closed = false;

  const pendingCount = () => [...queues.values()].reduce((sum, queue) => sum + queue.pending.length, 0);

  function queueOf(organizationId: string): Queue {
    let queue = queues.get(organizationId);
    if (!queue) queues.set(organizationId, (queue = { pending: [], appending: Promise.resolve(), chained: false }));
    return queue;
  }

  function schedule(delayMs: number) {
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = undefined;
      void flush();
    }, delayMs);
    timer.unref();
  }

  /**
   * After the organization's batch in progress, if any, so its reads reach the chain in the order
   * they were answered; `maxBatch` at a time, so a backlog never holds the chain's head for long.
   */
  function appendPending(organizationId: string, queue: Queue): Promise<void> {
    if (!queue.chained) {
      queue.chained = true;
      queue.appending = queue.appending.then(async () => {
        queue.chained = false;
        await appendAll(organizationId, queue);
      });
    }
    return queue.appending;
  }

  async function appendAll(organizationId: string, queue: Queue) {
    while (queue.pending.length > 0) {
      const batch = queue.pending.splice(0, options.maxBatch);
      try {
        // The transaction only collects the batch; the statement sent with its COMMIT appends it (see audit.ts).
        await withTenant({ organizationId, kind: 'system', id: 'read-trail' }, async (trx) => recordAuditInputs(trx, batch));
        failures = 0;
      } catch (error) {
        queue.pending.unshift(...batch);
        failures += 1;
        options.onError(error, pendingCount());
        schedule(Math.min(RETRY_MAX_MS, options.flushAfterMs * 2 ** failures));
        return;
      }
    }
  }

  async function flush(organizationId?: string) {
    const names = organizationId === undefined ? [...queues.keys()] : queues.has(organizationId) ? [organizationId] : [];
    // One organization after another: the connections are left to the requests.
    for (const name of names) await appendPending(name, queueOf(name));
  }

  return {
    record(context, event) {
      const organizationId = context.actor.organizationId;
      const queue = queueOf(organizationId);
      queue.pending.push(auditEventInput(context, event));
      if (queue.pending.length >= options.maxBatch || closed) void appendPending(organizationId, queue);
      else schedule(options.flushAfterMs);
    },
    flush,
    async close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      for (let attempt = 1; attempt <= CLOSE_ATTEMPTS && pendingCount() > 0; attempt++) {
        if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, options.flushAfterMs * attempt));
        await flush();
      }
      // Wait for batches a full queue started on its own.
      await Promise.all([...queues.values()].map((queue) => queue.appending));
      const lost = pendingCount();
      if (lost > 0) options.onError(new Error(`${lost} reads could not be appended to the audit trail before shutdown`), lost);
    },
    pendingCount,
  };
}
