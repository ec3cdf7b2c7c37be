-- Adjudication: each organization's rules (every version kept), the cases that potential matches
-- open, each case's history, and the suppressions ("good-guy" decisions) that clearing leaves.

-- The rule set, replaced whole and versioned: version n+1 is written, never version n changed, so a
-- case can always show the rules that governed it. No row means the built-in defaults (version 0).
CREATE TABLE adjudication_rules (
  organization_id text NOT NULL REFERENCES organizations (id),
  version integer NOT NULL CHECK (version >= 1),
  rules jsonb NOT NULL,
  created_by text NOT NULL,
  request_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, version)
);
SELECT enable_tenant_isolation('adjudication_rules');
GRANT SELECT, INSERT ON adjudication_rules TO gatehouse_runtime;

CREATE TABLE cases (
  organization_id text NOT NULL REFERENCES organizations (id),
  id text NOT NULL CHECK (id ~ '^case_[0-9a-z]{26}$'),
  screening_id text NOT NULL,
  -- Where the screening came from: prescreen, checkin, vendor, workforce, rescreen.
  source text NOT NULL,
  status text NOT NULL CHECK (status IN ('OPEN', 'ESCALATED', 'CLEARED', 'DENIED')),
  priority text NOT NULL CHECK (priority IN ('critical', 'high', 'medium', 'low')),
  -- 4 = critical … 1 = low: the queue sorts on it.
  priority_rank smallint NOT NULL CHECK (priority_rank BETWEEN 1 AND 4),
  priority_reasons jsonb NOT NULL,
  score double precision NOT NULL CHECK (score BETWEEN 0 AND 1),
  -- The lists of the matches that alerted (a JSON array), for the queue's `list` filter.
  lists jsonb NOT NULL,
  assignee text CHECK (length(assignee) BETWEEN 1 AND 200),
  sla_due_at timestamptz NOT NULL,
  rules_version integer NOT NULL CHECK (rules_version >= 0),
  -- A CLEARED or DENIED that waits for a second reviewer (four-eyes): who, what, why, when.
  pending_decision jsonb,
  -- match id → false_positive | true_match, as the reviewers decided.
  match_decisions jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  closed_at timestamptz,
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, screening_id) REFERENCES screenings (organization_id, id)
);
SELECT enable_tenant_isolation('cases');
GRANT SELECT, INSERT ON cases TO gatehouse_runtime;
GRANT UPDATE (screening_id, status, priority, priority_rank, priority_reasons, score, lists, assignee, sla_due_at, rules_version, pending_decision, match_decisions, updated_at, closed_at)
  ON cases TO gatehouse_runtime;
-- The queue: open and escalated cases by priority, then age; the keyset cursor follows this order.
CREATE INDEX cases_queue ON cases (organization_id, priority_rank DESC, created_at, id) WHERE status IN ('OPEN', 'ESCALATED');
CREATE INDEX cases_by_screening ON cases (organization_id, screening_id);

-- What happened to a case, in order, with who did it and why. Appended, never edited.
CREATE TABLE case_events (
  organization_id text NOT NULL REFERENCES organizations (id),
  case_id text NOT NULL,
  seq integer NOT NULL CHECK (seq >= 1),
  action text NOT NULL,
  actor text NOT NULL,
  from_status text,
  to_status text,
  disposition text,
  reason text CHECK (length(reason) <= 2000),
  details jsonb NOT NULL DEFAULT '{}',
  request_id text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (organization_id, case_id, seq),
  FOREIGN KEY (organization_id, case_id) REFERENCES cases (organization_id, id)
);
SELECT enable_tenant_isolation('case_events');
GRANT SELECT, INSERT ON case_events TO gatehouse_runtime;

-- A match cleared as a false positive is not alerted again for the same subject (its fingerprint)
-- against the same list entry *content* (its SHA-256): a change on either side, or expiry, lapses it.
CREATE TABLE suppressions (
  organization_id text NOT NULL REFERENCES organizations (id),
  id text NOT NULL CHECK (id ~ '^sup_[0-9a-z]{26}$'),
  subject_fingerprint text NOT NULL CHECK (subject_fingerprint ~ '^[0-9a-f]{64}$'),
  list text NOT NULL,
  entry_id text NOT NULL,
  entry_sha256 text NOT NULL CHECK (entry_sha256 ~ '^[0-9a-f]{64}$'),
  case_id text NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz,
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, case_id) REFERENCES cases (organization_id, id)
);
CREATE INDEX suppressions_lookup ON suppressions (organization_id, subject_fingerprint, list, entry_id);
SELECT enable_tenant_isolation('suppressions');
GRANT SELECT, INSERT ON suppressions TO gatehouse_runtime;
