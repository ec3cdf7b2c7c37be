/**
 * Re-walks an organization's chain from its first event, a batch at a time, and reports the
 * first link that does not hold.
 */
import type { Database } from '../db/database.ts';
import { type ChainBreak, findBreak, GENESIS_HASH } from './audit-chain.ts';
import { readLinks } from './audit-store.ts';

export type VerifyResult = { organization_id: string; events: number; intact: boolean; first_break?: ChainBreak };

const BATCH = 1_000;

export async function verifyChain(db: Database, organizationId: string): Promise<VerifyResult> {
  const actor = { organizationId, kind: 'system' as const, id: 'audit-verify' };
  let last: { seq: number; hash: Buffer } = { seq: 0, hash: GENESIS_HASH };
  for (;;) {
    const links = await db.withTenant(actor, (trx) => readLinks(trx, last.seq, BATCH));
    const broken = findBreak(links, last);
    if (broken) return { organization_id: organizationId, events: last.seq, intact: false, first_break: broken };
    const end = links.at(-1);
    if (!end) return { organization_id: organizationId, events: last.seq, intact: true };
    last = { seq: end.seq, hash: end.hash };
  }
}
