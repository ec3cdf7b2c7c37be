/**
 * The attack the audit chain's verification must catch: an owner who turns the append-only
 * trigger off, alters the trail, and turns it on again. In one transaction, which on Citus allows
 * the ALTER of a distributed table's trigger (`citus.enable_unsafe_triggers`, as the migrations
 * take it; elsewhere a setting nothing reads).
 */
import type { OwnerSql } from './test-database.ts';

/** Runs `statement` (values written into it: a DO block takes no parameters) on `audit_events` with its trigger off. */
export async function tamperWithAuditTrail(owner: OwnerSql, statement: string): Promise<void> {
  await owner(`DO $tamper$ BEGIN
    SET LOCAL citus.enable_unsafe_triggers TO on;
    ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_update_or_delete;
    ${statement};
    ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_update_or_delete;
  END $tamper$`);
}
