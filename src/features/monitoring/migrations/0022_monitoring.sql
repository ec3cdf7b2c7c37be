-- Continuous monitoring: when a list version lands, each organization's watched subjects
-- (active workforce, vendors, visitors not yet gone) are re-screened against the entries it added
-- or changed. One run per organization and list version; its cursor commits with each batch, so
-- a run cut short resumes where it stopped without opening a case twice.
CREATE TABLE monitoring_runs (
  organization_id text NOT NULL REFERENCES organizations (id),
  id text NOT NULL CHECK (id ~ '^mon_[0-9a-z]{26}$'),
  list text NOT NULL,
  list_version_id text NOT NULL,
  previous_version_id text NOT NULL,
  -- Entries the version added and changed: what is re-screened.
  changed_entries integer NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
  -- { "source": the kind of subject being worked (null: not begun), "after": the last one done }
  cursor jsonb NOT NULL,
  -- subjects, screened, potential_matches, cases_opened, cases_reopened
  counts jsonb NOT NULL,
  -- A process works a run while its lease lasts; a run whose lease ran out is taken up again.
  lease_until timestamptz,
  audit_hash text,
  error text,
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  finished_at timestamptz,
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX monitoring_runs_one_per_version ON monitoring_runs (organization_id, list_version_id);
CREATE INDEX monitoring_runs_to_do ON monitoring_runs (organization_id, created_at) WHERE status IN ('queued', 'running');
SELECT enable_tenant_isolation('monitoring_runs');
GRANT SELECT, INSERT ON monitoring_runs TO gatehouse_runtime;
GRANT UPDATE (status, cursor, counts, lease_until, audit_hash, error, started_at, finished_at) ON monitoring_runs TO gatehouse_runtime;
