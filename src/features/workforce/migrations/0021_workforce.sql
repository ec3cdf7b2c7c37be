-- Workforce: the people an organization employs or contracts, synced in bulk from its HR system,
-- screened when they are new or their screened facts change, and re-screened when lists change.
CREATE TABLE workforce_profiles (
  organization_id text NOT NULL REFERENCES organizations (id),
  id text NOT NULL CHECK (id ~ '^wfp_[0-9a-z]{26}$'),
  external_id text NOT NULL CHECK (length(external_id) BETWEEN 1 AND 128),
  status text NOT NULL CHECK (status IN ('active', 'inactive')),
  -- The profile as last synced: name, email, country, citizenship, U.S.-person status, date of birth, department, metadata.
  profile jsonb NOT NULL,
  -- SHA-256 of the screened facts (name, date of birth, country, citizenship), and of the whole profile.
  screened_sha256 text NOT NULL,
  profile_sha256 text NOT NULL,
  latest_screening_id text,
  latest_outcome text CHECK (latest_outcome IN ('clear', 'potential_match')),
  -- When the profile was last screened in full (monitoring skips list versions older than that).
  screened_at timestamptz,
  case_id text,
  last_sync_id text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX workforce_profiles_by_external_id ON workforce_profiles (organization_id, external_id);
SELECT enable_tenant_isolation('workforce_profiles');
GRANT SELECT, INSERT ON workforce_profiles TO gatehouse_runtime;
GRANT UPDATE (status, profile, screened_sha256, profile_sha256, latest_screening_id, latest_outcome, screened_at, case_id, last_sync_id, updated_at)
  ON workforce_profiles TO gatehouse_runtime;

CREATE TABLE workforce_syncs (
  organization_id text NOT NULL REFERENCES organizations (id),
  id text NOT NULL CHECK (id ~ '^wfs_[0-9a-z]{26}$'),
  mode text NOT NULL CHECK (mode IN ('upsert', 'full')),
  status text NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
  -- created, updated, unchanged, deactivated, screened, potential_matches, cases_opened
  counts jsonb NOT NULL,
  actor text NOT NULL,
  request_id text,
  started_at timestamptz NOT NULL,
  finished_at timestamptz,
  PRIMARY KEY (organization_id, id)
);
SELECT enable_tenant_isolation('workforce_syncs');
GRANT SELECT, INSERT ON workforce_syncs TO gatehouse_runtime;
GRANT UPDATE (status, counts, finished_at) ON workforce_syncs TO gatehouse_runtime;
