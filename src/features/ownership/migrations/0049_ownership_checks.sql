-- Ownership determinations on record: each stored check as it was asked and answered (the graph as
-- submitted, both verdicts with their paths and warnings, the list versions and screening matches
-- used), its hash, and the determination it re-evaluated. Never edited: a re-evaluation that changes
-- the verdict is a new row that `supersedes` the old one, which only learns `superseded_by`.
CREATE TABLE ownership_checks (
  organization_id text NOT NULL REFERENCES organizations (id),
  id text NOT NULL CHECK (id ~ '^own_[0-9a-z]{26}$'),
  -- The caller's id for the target party and its name: what the list filters on.
  target_id text NOT NULL CHECK (length(target_id) BETWEEN 1 AND 200),
  target_name text CHECK (length(target_name) <= 300),
  status text NOT NULL CHECK (status IN ('blocked', 'restricted', 'indeterminate', 'clear')),
  as_of date NOT NULL,
  vendor_id text,
  case_id text,
  supersedes_id text,
  superseded_by_id text,
  record jsonb NOT NULL,
  -- SHA-256 of the record's canonical JSON, as its audit event names it.
  record_sha256 text NOT NULL CHECK (record_sha256 ~ '^[0-9a-f]{64}$'),
  actor text NOT NULL,
  checked_at timestamptz NOT NULL,
  PRIMARY KEY (organization_id, id),
  -- No foreign key on supersedes_id: the re-evaluation writes it with the row it supersedes in one
  -- transaction; and on an empty table PostgreSQL checks a self-reference through any index leading
  -- with organization_id (test/db/foreign-key-plans.test.ts).
  FOREIGN KEY (organization_id, vendor_id) REFERENCES vendors (organization_id, id)
);
CREATE INDEX ownership_checks_by_target ON ownership_checks (organization_id, target_id);
CREATE INDEX ownership_checks_by_vendor ON ownership_checks (organization_id, vendor_id) WHERE vendor_id IS NOT NULL;
SELECT enable_tenant_isolation('ownership_checks');
GRANT SELECT, INSERT ON ownership_checks TO gatehouse_runtime;
GRANT UPDATE (case_id, superseded_by_id) ON ownership_checks TO gatehouse_runtime;
