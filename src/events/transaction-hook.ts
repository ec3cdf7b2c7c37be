/**
 * A reaction to a change, inside the transaction that makes it, by code that sits above the code
 * making it (a visitor session following its case's status): the lower module runs the hook
 * before it commits; the composition root (src/composition.ts) subscribes the handlers above.
 * Unlike an outbox event (outbox.ts), which reaches its receivers after commit, a handler shares
 * the change's fate: its failure rolls the whole transaction back.
 */
import type { AuditContext } from '../audit/audit.ts';
import type { TenantTransaction } from '../db/tenant.ts';

export type HookHandler<P> = (trx: TenantTransaction, context: AuditContext, payload: P) => Promise<void>;

export type TransactionHook<P> = {
  on(handler: HookHandler<P>): void;
  /** Runs every handler in turn, in the order subscribed, in the caller's transaction. */
  run(trx: TenantTransaction, context: AuditContext, payload: P): Promise<void>;
};

export function createTransactionHook<P>(): TransactionHook<P> {
  const handlers: HookHandler<P>[] = [];
  return {
    on(handler) {
      handlers.push(handler);
    },
    async run(trx, context, payload) {
      for (const handler of handlers) await handler(trx, context, payload);
    },
  };
}
