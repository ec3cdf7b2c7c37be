/**
 * Work that follows a new list version into an organization's stored data (stored ownership
 * determinations re-evaluated as of it), done by the monitoring run for that version, batch by
 * batch, in the run's transactions, so that its cursor and its counts commit with each batch and
 * a run cut short resumes where it stopped. Declared here, below the features: monitoring runs a
 * follower and ownership offers one, and neither may import the other; the composition root
 * (src/composition.ts) hands one to the other.
 */
import type { AuditContext } from '../audit/audit.ts';
import type { TenantTransaction } from '../db/tenant.ts';

export type FollowedVersion = { list: string; versionId: string; previousVersionId: string; importedAt: Date };

export type FollowedBatch = {
  /** The last item done, for the next batch to start after. */
  after: string | null;
  /** Nothing is left after this batch. */
  done: boolean;
  /** Items looked at in this batch, and those of them the version changed. */
  examined: number;
  changed: number;
};

/** One batch, in the run's transaction, after the item `after` (null: from the start). */
export type FollowBatch = (trx: TenantTransaction, context: AuditContext, after: string | null) => Promise<FollowedBatch>;

export type VersionFollower = {
  /** What the run's cursor names while it follows (its items' kind). */
  kind: string;
  /** The lists whose versions it follows: a version of one that only removed entries gets a run too. */
  lists: readonly string[];
  /**
   * Whether the organization holds anything a version could change, in the run's transaction: when
   * it holds nothing, the run passes the follower by and the version's changes are never read.
   */
  holdsAny(trx: TenantTransaction): Promise<boolean>;
  /**
   * Reads what the version changed, outside any transaction (on the embedded database a
   * transaction holds its only connection, and the lists are read on another), and answers the
   * batches' worker. A batch uses nothing but its transaction.
   */
  follow(version: FollowedVersion): Promise<FollowBatch>;
};
