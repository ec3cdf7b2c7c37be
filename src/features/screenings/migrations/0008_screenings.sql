-- Screenings: each answer as it was given, with the list versions it was matched against, so a
-- record read a year later still says what was known then. Stored whole (jsonb) because the
-- record is read and rendered whole; the columns beside it are what queries filter on.
CREATE TABLE screenings (
  organization_id text NOT NULL REFERENCES organizations (id),
  id text NOT NULL CHECK (id ~ '^scr_[0-9a-z]{26}$'),
  source text NOT NULL CHECK (source IN ('prescreen', 'vendor', 'checkin', 'workforce', 'rescreen')),
  outcome text NOT NULL CHECK (outcome IN ('clear', 'potential_match')),
  score double precision NOT NULL CHECK (score BETWEEN 0 AND 1),
  reference text CHECK (length(reference) <= 128),
  -- A potential match needs an adjudication case; the adjudication feature opens it and fills case_id.
  needs_case boolean NOT NULL,
  case_id text,
  record jsonb NOT NULL,
  -- SHA-256 of the record's canonical JSON and the hash of the audit event that recorded it.
  record_sha256 text NOT NULL CHECK (record_sha256 ~ '^[0-9a-f]{64}$'),
  audit_hash text NOT NULL,
  actor text NOT NULL,
  request_id text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (organization_id, id)
);
SELECT enable_tenant_isolation('screenings');
GRANT SELECT, INSERT ON screenings TO gatehouse_runtime;
GRANT UPDATE (case_id, needs_case) ON screenings TO gatehouse_runtime;
CREATE INDEX screenings_needing_cases ON screenings (organization_id, id) WHERE needs_case;

-- Vendors screened through POST /vendors/screen, upserted by the caller's external id.
CREATE TABLE vendors (
  organization_id text NOT NULL REFERENCES organizations (id),
  id text NOT NULL CHECK (id ~ '^ven_[0-9a-z]{26}$'),
  external_id text CHECK (length(external_id) BETWEEN 1 AND 128),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 300),
  country text CHECK (country ~ '^[A-Z]{2}$'),
  identifiers jsonb NOT NULL DEFAULT '{}',
  reference text CHECK (length(reference) <= 128),
  latest_screening_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX vendors_by_external_id ON vendors (organization_id, external_id) WHERE external_id IS NOT NULL;
SELECT enable_tenant_isolation('vendors');
GRANT SELECT, INSERT ON vendors TO gatehouse_runtime;
GRANT UPDATE (name, country, identifiers, reference, latest_screening_id, updated_at) ON vendors TO gatehouse_runtime;
