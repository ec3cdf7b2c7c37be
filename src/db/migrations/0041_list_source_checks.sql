-- What the service's scheduled list refresh remembers between checks (src/lists/source-check-store.ts).
-- Shared like the lists themselves (no organization_id), and read and written by the owner only: the
-- runtime role never needs it, and a check's error may name a URL an operator configured.

-- One row per configured source: when it was last tried and last succeeded, how many checks in a
-- row have failed and why, and the validators (ETag, Last-Modified, SHA-256) of each file URL it
-- last served, sent back as a conditional request so an unchanged file is not downloaded again.
CREATE TABLE list_source_checks (
  source text PRIMARY KEY,
  last_attempt_at timestamptz,
  last_success_at timestamptz,
  consecutive_failures integer NOT NULL DEFAULT 0 CHECK (consecutive_failures >= 0),
  last_error text,
  -- {"<file url>": {"etag": "...", "last_modified": "...", "sha256": "..."}}
  validators jsonb NOT NULL DEFAULT '{}',
  -- The versions its last success left active: the validators hold only while these still are.
  version_ids jsonb NOT NULL DEFAULT '[]',
  -- Set when `lists.update_failed` was sent for the current run of failures; cleared on recovery.
  failing_since timestamptz
);

-- When each active list was last confirmed current (a check that found it unchanged, or an
-- import): a list's age is measured from here, not from its publication date.
ALTER TABLE list_heads ADD COLUMN confirmed_at timestamptz NOT NULL DEFAULT now();
-- Set when `lists.stale` was sent for this list; cleared (with `lists.recovered`) when it is fresh again.
ALTER TABLE list_heads ADD COLUMN stale_since timestamptz;

-- At most one process downloads at a time. A lease rather than a session advisory lock: it
-- works through a transaction-pooling PgBouncer, and a holder that crashed loses it when it expires.
CREATE TABLE list_refresh_lease (
  name text PRIMARY KEY,
  holder text NOT NULL,
  expires_at timestamptz NOT NULL
);

