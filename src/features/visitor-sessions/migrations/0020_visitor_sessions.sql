-- Visitor sessions: a visitor's stay at a site, from check-in (screened at the door) to check-out.
CREATE TABLE visitor_sessions (
  organization_id text NOT NULL REFERENCES organizations (id),
  id text NOT NULL CHECK (id ~ '^ses_[0-9a-z]{26}$'),
  status text NOT NULL CHECK (status IN ('pending_review', 'checked_in', 'escalated', 'denied', 'checked_out')),
  -- On site from check-in until check-out or denial: what a roll-call counts.
  on_site boolean NOT NULL,
  site text NOT NULL CHECK (length(site) BETWEEN 1 AND 100),
  -- The visitor as given: name, company, country, citizenship, U.S.-person status, email, date of birth.
  visitor jsonb NOT NULL,
  host jsonb,
  purpose text CHECK (length(purpose) <= 500),
  badge_number text CHECK (length(badge_number) <= 64),
  escort_required boolean NOT NULL DEFAULT false,
  expected_departure_at timestamptz,
  metadata jsonb NOT NULL DEFAULT '{}',
  screening_id text NOT NULL,
  -- True when a fresh prescreen of the same person stood in for screening at the door.
  prescreen_reused boolean NOT NULL,
  case_id text,
  -- Every status change and note: [{ at, actor, from, to, note }].
  history jsonb NOT NULL,
  checked_in_at timestamptz,
  checked_out_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, screening_id) REFERENCES screenings (organization_id, id)
);
SELECT enable_tenant_isolation('visitor_sessions');
GRANT SELECT, INSERT ON visitor_sessions TO gatehouse_runtime;
GRANT UPDATE (status, on_site, metadata, case_id, history, checked_in_at, checked_out_at, updated_at) ON visitor_sessions TO gatehouse_runtime;
-- Newest first, and the roll-call of a site.
CREATE INDEX visitor_sessions_recent ON visitor_sessions (organization_id, created_at DESC, id DESC);
CREATE INDEX visitor_sessions_on_site ON visitor_sessions (organization_id, site) WHERE on_site;
CREATE INDEX visitor_sessions_by_case ON visitor_sessions (organization_id, case_id) WHERE case_id IS NOT NULL;
