/**
 * Re-walks an organization's chain from its first event, a batch at a time, and reports the
 * first link that does not hold.
 */
import type { Database } from '../db/database.ts';
import { type ChainBreak, findBreak, GENESIS_HASH } from './audit-chain.ts';
import { headSeq, readLinks } from './audit-store.ts';

export type VerifyResult = { organization_id: string; events: number; intact: boolean; first_break?: ChainBreak };

const BATCH = 1_000;

export async function verifyChain(db: Database, organizationId: string): Promise<VerifyResult> {
  const actor = { organizationId, kind: 'system' as const, id: 'audit-verify' };
  const end = await db.withTenant(actor, headSeq);
  let last: { seq: number; hash: Buffer } = { seq: 0, hash: GENESIS_HASH };
  for (let window = 0; window < end; window += BATCH) {
    const links = await db.withTenant(actor, (trx) => readLinks(trx, window, Math.min(window + BATCH, end)));
    const broken = findBreak(links, last);
    if (broken) return { organization_id: organizationId, events: last.seq, intact: false, first_break: broken };
    const latest = links.at(-1);
    if (latest) last = { seq: latest.seq, hash: latest.hash };
  }
  if (last.seq !== end) {
    return {
      organization_id: organizationId,
      events: last.seq,
      intact: false,
      first_break: { seq: last.seq + 1, reason: `missing: the chain's head is at ${end}` },
    };
  }
  return { organization_id: organizationId, events: last.seq, intact: true };
}
